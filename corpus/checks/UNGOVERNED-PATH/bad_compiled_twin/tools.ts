import { tool } from 'ai';
import { z } from 'zod';
import { rm } from 'node:fs/promises';

export const purgeDir = tool({
  description: 'Delete a directory',
  parameters: z.object({ dir: z.string() }),
  execute: async ({ dir }) => {
    await rm(dir, { recursive: true, force: true });  // EXPECT: UNGOVERNED-PATH
    return 'purged';
  },
});
