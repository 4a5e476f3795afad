import type { ReactNode } from 'react';
import { DropdownMenu } from 'radix-ui';
import clsx from 'clsx';
import type { MenuTriggerProps } from './Menu';

// The drop-down menu library, loaded by components/Menu.tsx when a trigger is first pointed at,
// focused or pressed: no first page downloads it (decision 032).

/** The menu itself: its trigger, and its panel under the trigger, aligned to the trigger's end. */
export function MenuRoot({
  trigger,
  modal,
  defaultOpen,
  children,
}: {
  trigger: MenuTriggerProps;
  modal?: boolean;
  defaultOpen: boolean;
  children: ReactNode;
}) {
  return (
    <DropdownMenu.Root modal={modal} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger {...trigger} />
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className="z-50 min-w-52 rounded-xl border border-zinc-700 bg-zinc-900 p-1 shadow-xl shadow-black/50">
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** One entry of a menu: its icon, then its words. */
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

export const MenuLabel = DropdownMenu.Label;
export const MenuSeparator = DropdownMenu.Separator;
