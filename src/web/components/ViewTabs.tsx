import type { ComponentType, ReactNode } from 'react';
import { Tabs } from 'radix-ui';
import clsx from 'clsx';

export interface ViewTab {
  value: string;
  label: string;
  icon: ComponentType<{ className?: string }>;
  content: ReactNode;
}

/**
 * A view's sections as tabs in a pill bar, the first one open. `fitPhone`: on a phone the tabs
 * share the width in equal columns without their icons, so the bar never wraps.
 */
export function ViewTabs({ label, tabs, fitPhone = false }: { label: string; tabs: readonly ViewTab[]; fitPhone?: boolean }) {
  return (
    <Tabs.Root defaultValue={tabs[0]?.value}>
      <Tabs.List
        aria-label={label}
        className={clsx(
          'gap-1 rounded-xl border border-zinc-800 bg-zinc-950/60 p-1',
          fitPhone ? 'mb-5 grid w-full auto-cols-fr grid-flow-col sm:inline-flex sm:w-auto' : 'mb-4 inline-flex flex-wrap',
        )}
      >
        {tabs.map(({ value, label: tabLabel, icon: Icon }) => (
          <Tabs.Trigger
            key={value}
            value={value}
            className={clsx(
              'inline-flex items-center gap-1.5 rounded-lg py-1.5 text-sm font-medium text-zinc-400 transition hover:text-white data-[state=active]:bg-zinc-800 data-[state=active]:text-white data-[state=active]:shadow',
              fitPhone ? 'justify-center px-2 whitespace-nowrap sm:px-3' : 'px-3',
            )}
          >
            <Icon className={clsx('size-4', fitPhone && 'hidden sm:block')} aria-hidden="true" /> {tabLabel}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {tabs.map(({ value, content }) => (
        <Tabs.Content key={value} value={value} className="outline-none">
          {content}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
