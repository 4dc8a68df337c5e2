// consequential_paths: two model-invoked tools reach the one rm (two paths); the nightly job
// reaches it too, but no model output shapes it (not a path).

import { rm } from 'node:fs/promises';
import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

async function wipe(path: string) {
  await rm(path, { recursive: true, force: true });
}

export const resetWorkspace = tool({
  name: 'reset_workspace',
  description: 'The model decides when; the path is fixed.',
  parameters: z.object({}),
  execute: async () => {
    await wipe('/srv/workspace');
    return 'reset';
  },
});

export const resetCache = tool({
  name: 'reset_cache',
  description: 'Reset the cache',
  parameters: z.object({}),
  execute: async () => {
    await wipe('/srv/cache');
    return 'reset';
  },
});

export async function nightly() {
  await wipe('/srv/tmp');
}

export const agent = new Agent({ name: 'ops', tools: [resetWorkspace, resetCache] });
