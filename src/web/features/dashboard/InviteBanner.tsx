import { Gift } from 'lucide-react';
import { Button } from '../../components/Button';

/**
 * Every signed-in user manages their own invite codes (admins reach the
 * same view from Admin Controls); this is the way in for everyone else.
 */
export function InviteBanner({ onOpen }: { onOpen: () => void }) {
  return (
    <section
      aria-labelledby="invite-banner-title"
      className="flex flex-col gap-4 rounded-2xl border border-fuchsia-500/20 bg-gradient-to-r from-violet-500/10 to-fuchsia-500/10 p-5 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex items-start gap-4">
        <div className="grid size-11 shrink-0 place-items-center rounded-xl bg-fuchsia-500/15 text-fuchsia-300">
          <Gift className="size-5" aria-hidden="true" />
        </div>
        <div>
          <h2 id="invite-banner-title" className="text-base font-semibold text-white">
            Invite friends
          </h2>
          <p className="mt-1 text-sm text-zinc-400">Create invite codes and see who joined with them.</p>
        </div>
      </div>
      <Button variant="secondary" size="sm" onClick={onOpen} className="self-start px-4 py-2 text-sm sm:self-auto">
        Manage invites
      </Button>
    </section>
  );
}
