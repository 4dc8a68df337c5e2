import fs from 'fs';
import { mkdir, rename, stat, writeFile, readFile } from 'node:fs/promises';
import simpleGit from 'simple-git';
import { exec } from 'node:child_process';
import util, { promisify } from 'node:util';

const execAsync = promisify(exec);
const execAgain = util.promisify(exec);
const readAsync = promisify(fs.readFile);

export async function shell(command: string, path: string) {
  await execAsync(command); // W sinks.ts.child_process code_execution
  await execAgain(command); // W sinks.ts.child_process code_execution
  await readAsync(path); // R
}

export async function files(path: string, text: string) {
  fs.writeFileSync(path, text); // W local.ts.fs_write data_write
  fs.appendFileSync(path, text); // W local.ts.fs_write data_write
  fs.readFileSync(path, 'utf8'); // R
  fs.createReadStream(path); // R
  await writeFile(path, text); // W local.ts.fs_write data_write
  await rename(path, path + '.bak'); // W local.ts.fs_write data_write
  await mkdir(path + '.d', { recursive: true }); // W local.ts.fs_write data_write
  await fs.promises.copyFile(path, path + '.copy'); // W local.ts.fs_write data_write
  await stat(path); // R
  await readFile(path, 'utf8'); // R
}

export async function git(message: string) {
  const repo = simpleGit('/repo');
  await repo.add('.'); // W local.ts.simple_git data_write
  await repo.commit(message); // W local.ts.simple_git data_write
  await repo.status(); // R
  await repo.log(); // R
}
