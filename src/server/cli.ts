import { bootContext, configOrExit } from './boot.js';
import { DependencyError } from './lifecycle/dependency-checks.js';
import { DataDirBusyError } from './db/data-dir-lock.js';
import { AppError } from './core/errors.js';
import { backupCommand, restoreCommand } from './ops/backup-commands.js';
import { migrateToCommand } from './ops/migrate-to.js';
import { RestoreError } from './ops/restore.js';
import { MigrateToError } from './ops/migrate-to.js';

const USAGE = `Usage:
  npm run cli -- role <email> admin|vip|user   set an account's role
  npm run cli -- grant <email> <energy>        add ENERGY to an account
  npm run cli -- migrate                       apply database migrations
  npm run cli -- backup <file>                 write a backup archive (database + local files)
  npm run cli -- restore <file>                restore a backup into an empty install
  npm run cli -- migrate-to --database-url <url> [--s3-bucket <name> --s3-endpoint <url>
                 --s3-region <r> --s3-access-key-id <id> --s3-secret-access-key <secret>]
                                               move an embedded install to Postgres (+ S3)

With the embedded database the app must be stopped first (it owns the data
directory), except for backup, which the running app makes itself; with
DATABASE_URL the CLI works beside running apps.`;

async function main(argv: string[]) {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  const config = configOrExit();
  // These open the database themselves: a restore must see it before any migration runs.
  if (command === 'backup' || command === 'restore') {
    const [file] = args;
    if (!file) throw new AppError('validation', `${command} needs a file name.\n\n${USAGE}`);
    await (command === 'backup' ? backupCommand : restoreCommand)(config, file, (line) => console.log(line));
    return;
  }
  if (command === 'migrate-to') {
    await migrateToCommand(config, args, (line) => console.log(line));
    return;
  }
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
  if (err instanceof DataDirBusyError || err instanceof DependencyError || err instanceof AppError || err instanceof RestoreError || err instanceof MigrateToError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
