import { Worker } from 'node:worker_threads';

/**
 * Starts the worker module `name` (without extension) that sits next to the module at `besideUrl`. Built,
 * that is the compiled .js file; under tsx or vitest the caller is the .ts source, so is the worker, and tsx
 * must be registered inside the worker thread (Node 20 does not pass loader hooks on).
 */
export function startWorker(besideUrl: string, name: string, workerData?: unknown): Worker {
  if (!besideUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, besideUrl), { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL(`./${name}.ts`, besideUrl).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, workerData });
}
