import { readFile, rm } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'files', version: '1.0.0' });

server.registerTool(
  'read_file',
  {
    description: 'Read a file',
    inputSchema: { path: z.string() },
    annotations: { readOnlyHint: true },
  },
  async ({ path }) => ({ content: [{ type: 'text', text: await readFile(path, 'utf8') }] }),
);

server.registerTool(
  'delete_path',
  {
    description: 'Delete a path',
    inputSchema: { path: z.string() },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  },
  async ({ path }) => {
    await rm(path, { recursive: true });
    return { content: [{ type: 'text', text: 'deleted' }] };
  },
);
