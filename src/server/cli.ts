import { bootContext, configOrExit } from './boot.js';
import { DataDirBusyError } from './db/data-dir-lock.js';
import { AppError } from './http/errors.js';

const USAGE = `Usage:
  npm run cli -- role <email> admin|vip|user   set an account's role
  npm run cli -- grant <email> <energy>        add ENERGY to an account
  npm run cli -- migrate                       apply database migrations

With the embedded database the app must be stopped first (it owns the data
directory); with DATABASE_URL the CLI works beside running apps.`;

async function main(argv: string[]) {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  const config = configOrExit();
  const ctx = await bootContext({ ...config, LOG_LEVEL: 'warn' });
  try {
    switch (command) {
      case 'migrate':
        console.log('Database is up to date.');
        break;
      case 'role': {
        const [email, role] = args;
        if (!email || !role) throw new AppError('validation', USAGE);
        await ctx.services.profiles.setRoleByEmail(email, role);
        console.log(`${email} is now ${role}.`);
        break;
      }
      case 'grant': {
        const [email, amountText] = args;
        const amount = Number(amountText);
        if (!email || !Number.isInteger(amount) || amount <= 0) {
          throw new AppError('validation', 'grant needs an e-mail and a positive whole number of ENERGY');
        }
        const userId = await ctx.services.profiles.userIdByEmail(email);
        const balance = await ctx.services.energy.grant(userId, amount, 'Granted by operator');
        console.log(`Granted ${amount} ENERGY to ${email}; balance is now ${balance}.`);
        break;
      }
      default:
        throw new AppError('validation', `Unknown command '${command}'.\n\n${USAGE}`);
    }
  } finally {
    await ctx.db.close();
  }
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof DataDirBusyError || err instanceof AppError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
