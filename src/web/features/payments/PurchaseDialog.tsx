import { Zap } from 'lucide-react';
import { Modal } from '../../components/Modal';

export interface PurchaseDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * SPEC §2 'Purchase ENERGY' modal. Placeholder body: the bundles grid,
 * checkout and success view land here in the payments issue.
 */
export function PurchaseDialog({ open, onOpenChange }: PurchaseDialogProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Purchase ENERGY" description="Top up your balance to keep creating.">
      <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-zinc-700 bg-zinc-950/50 px-6 py-10 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-amber-400/15 text-amber-300">
          <Zap className="size-6" fill="currentColor" aria-hidden="true" />
        </span>
        <p className="font-semibold text-zinc-100">ENERGY bundles are coming soon</p>
        <p className="max-w-xs text-sm text-zinc-400">Card payments for ENERGY bundles arrive in the next release.</p>
      </div>
    </Modal>
  );
}
