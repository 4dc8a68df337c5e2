export * from '@openai/agents-core';
