import type { ReactNode } from 'react';
import { DropdownMenu } from 'radix-ui';
import clsx from 'clsx';

/** A drop-down menu's panel, under its button and aligned to the button's end. */
export function MenuPanel({ children }: { children: ReactNode }) {
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.Content align="end" sideOffset={6} className="z-50 min-w-52 rounded-xl border border-zinc-700 bg-zinc-900 p-1 shadow-xl shadow-black/50">
        {children}
      </DropdownMenu.Content>
    </DropdownMenu.Portal>
  );
}

/** One entry of a MenuPanel: its icon, then its words. */
export function MenuItem({ className, ...item }: DropdownMenu.DropdownMenuItemProps) {
  return (
    <DropdownMenu.Item
      className={clsx(
        'flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm text-zinc-200 outline-none data-[highlighted]:bg-zinc-800 data-[highlighted]:text-white',
        className,
      )}
      {...item}
    />
  );
}
