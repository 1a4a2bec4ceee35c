// Types of deploy-sandbox.mjs for the TypeScript tests that use it.
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import type { Server } from 'node:net';

export const PUBLIC_ADDRESS: string;
export const OUTSIDE_ADDRESS: string;
export const PRIVATE_ADDRESS: string;

export class DeploySandbox {
  readonly dir: string;
  static available(): boolean;
  static create(): Promise<DeploySandbox>;
  spawn(command: string, args: string[], options?: SpawnOptions): ChildProcess;
  run(
    command: string,
    args: string[],
    options?: SpawnOptions,
  ): Promise<{ code: number | null; output: string }>;
  check(command: string, args: string[], options?: SpawnOptions): Promise<string>;
  hostPath(path: string): string;
  close(): void;
}

export function unitExec(
  unitText: string,
  env?: Record<string, string>,
): { user?: string; group?: string; pre: string[][]; start: string[] };

export function startUnit(
  sandbox: DeploySandbox,
  unitPath: string,
  env?: Record<string, string>,
): Promise<{ failed: string } | { failed?: undefined; child: ChildProcess; log: () => string }>;

export type Endpoint = { host: string; port: number } | { path: string };
export function bridge(listen: Endpoint, connect: Endpoint): Promise<Server>;
export function bridgeInside(
  sandbox: DeploySandbox,
  listen: Endpoint,
  connect: Endpoint,
): Promise<ChildProcess>;

export function installEdge(
  sandbox: DeploySandbox,
  site: { name: string; turnSecret: string },
): Promise<string>;
