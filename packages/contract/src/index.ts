export * from './common.js';
export * from './http.js';
export * from './ja.js';
