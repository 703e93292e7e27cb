export * from './calls.js';
export * from './encode.js';
export * from './entities.js';
export * from './eventOrder.js';
export * from './live.js';
export * from './orderLabels.js';
export * from './purchases.js';
export * from './validate.js';
