// The boot script's entry (build-preset/boot-script.mjs bundles it into the page).
import { boot } from './boot.js';

boot();
