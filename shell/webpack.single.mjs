import { resolve } from 'node:path';
import { singleBundleApp } from 'build-preset/single';

// The shell and the four remotes as one application (build-preset/single.mjs), in dist-single/.
export default singleBundleApp(resolve(import.meta.dirname, '..'));
