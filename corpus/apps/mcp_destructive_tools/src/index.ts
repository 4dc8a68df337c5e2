import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { rm } from 'node:fs/promises';
import { execSync } from 'node:child_process';
import { PrismaClient } from '@prisma/client';

const server = new McpServer({ name: 'ops', version: '1.0.0' });
const prisma = new PrismaClient();

server.tool('delete_path', { path: z.string() }, async ({ path }) => {
  await rm(path, { recursive: true, force: true });
  return { content: [{ type: 'text', text: `deleted ${path}` }] };
});

server.registerTool(
  'drop_customer',
  { description: 'Delete a customer and all their orders', inputSchema: { id: z.string() } },
  async ({ id }) => {
    await prisma.customer.delete({ where: { id } });
    return { content: [{ type: 'text', text: 'done' }] };
  },
);

server.tool('run_shell', 'Run a maintenance command', { command: z.string(), force: z.boolean() },
  async ({ command, force }) => {
    const output = execSync(command).toString();
    return { content: [{ type: 'text', text: output }] };
  });

// Read-only: not an executor.
server.tool('count_customers', {}, async () => {
  const total = await prisma.customer.count();
  return { content: [{ type: 'text', text: String(total) }] };
});

await server.connect(new StdioServerTransport());
