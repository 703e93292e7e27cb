export { exposesFolder, renderWithQuery } from './render.js';
export { useMswServer } from './msw.js';
