export * from './common.js';
export * from './http.js';
export * from './ja.js';
export * from './socket.js';
export * from './talk.js';
export * from './auto-reply.js';
export * from './content.js';
export * from './admin.js';
