import { join } from 'node:path';
import { expect, it } from 'vitest';
import { exposesFolder } from '@marketplace/shared/test-utils';
import { EXPOSED } from './exposed.js';

it('the exposes/ folder holds exactly the modules the platform contract gives this remote', () => {
  expect(exposesFolder(join(import.meta.dirname, 'exposes'))).toEqual(Object.keys(EXPOSED).sort());
});
