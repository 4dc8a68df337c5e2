export { tool, shellTool } from './tool';
