// `npm run dev`: the API (restarted on server changes) on :3000 and the UI with
// hot reload on :5173, which forwards /api and /functions to the API.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
// Development said out loud: the app only turns on its test checkout when told so.
const env = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' };
const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'src/server/main.ts'], { cwd: root, stdio: 'inherit', env }),
  spawn(bin('vite'), [], { cwd: root, stdio: 'inherit' }),
];
console.log('API on http://127.0.0.1:3000, UI with hot reload on http://localhost:5173');
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => {
  stop();
  process.exit(code ?? 0);
});
