// tsc output beside its source: audited once, as tools.ts.
import { tool } from 'ai';
import { z } from 'zod';
import { rm } from 'node:fs/promises';
export const purgeDir = tool({
    description: 'Delete a directory',
    parameters: z.object({ dir: z.string() }),
    execute: async ({ dir }) => {
        await rm(dir, { recursive: true, force: true });  // EXPECT-NOT: UNGOVERNED-PATH
        return 'purged';
    },
});
