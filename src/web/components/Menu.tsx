import { createContext, useContext, useLayoutEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import type { DropdownMenu } from 'radix-ui';
import { lazyModule } from '../lib/lazyModule';

/**
 * Drop-down menus load their library (some 27 KiB compressed) when a trigger is first pointed at,
 * focused or pressed, not with the page (decision 032). Until then the trigger is a plain button
 * that looks and reads the same; a press before the library has arrived opens the menu as soon as
 * it has.
 */
const menuLibrary = lazyModule(() => import('./MenuLibrary'));
type Library = typeof import('./MenuLibrary');

const LibraryContext = createContext<Library | null>(null);
function useLibrary(): Library {
  const lib = useContext(LibraryContext);
  if (!lib) throw new Error('Menu items belong inside a <Menu>');
  return lib;
}

/** What the trigger button carries: its classes, its accessible name and title, and what it shows. */
export interface MenuTriggerProps {
  className: string;
  'aria-label': string;
  title?: string;
  children: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

const OPEN_KEYS = ['Enter', ' ', 'ArrowDown'];

/** A button that opens a menu of `children` (MenuItem, MenuLabel, MenuSeparator) under it. */
export function Menu({
  trigger,
  modal,
  children,
}: {
  trigger: Omit<MenuTriggerProps, 'ref'>;
  /** false: the rest of the page stays usable while the menu is open. */
  modal?: boolean;
  children: ReactNode;
}) {
  const [lib, setLib] = useState(menuLibrary.current);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);

  // The library's trigger replaces the plain button: keep the keyboard focus where it was.
  useLayoutEffect(() => {
    if (lib && refocus.current) {
      refocus.current = false;
      button.current?.focus({ preventScroll: true });
    }
  }, [lib]);

  if (lib) {
    return (
      <LibraryContext.Provider value={lib}>
        <lib.MenuRoot trigger={{ ...trigger, ref: button }} modal={modal} defaultOpen={openOnLoad}>
          {children}
        </lib.MenuRoot>
      </LibraryContext.Provider>
    );
  }

  const load = (open: boolean) => {
    if (open) setOpenOnLoad(true);
    void menuLibrary.load().then((m) => {
      refocus.current = document.activeElement === button.current;
      setLib(m);
    });
  };
  // The same button and attributes the library's trigger renders, closed.
  return (
    <button
      {...trigger}
      ref={button}
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      onPointerEnter={() => load(false)}
      onFocus={() => load(false)}
      onPointerDown={(e) => {
        if (e.button !== 0 || e.ctrlKey) return;
        // As the library does: the opening menu takes the focus, not the button.
        e.preventDefault();
        load(true);
      }}
      onKeyDown={(e) => {
        if (!OPEN_KEYS.includes(e.key)) return;
        e.preventDefault();
        load(true);
      }}
    />
  );
}

/** One entry of a menu: its icon, then its words. */
export function MenuItem(props: DropdownMenu.DropdownMenuItemProps) {
  const { MenuItem: Item } = useLibrary();
  return <Item {...props} />;
}

/** A line of text at the top of a menu, not an entry. */
export function MenuLabel(props: DropdownMenu.DropdownMenuLabelProps) {
  const { MenuLabel: Label } = useLibrary();
  return <Label {...props} />;
}

/** A line between groups of entries. */
export function MenuSeparator(props: DropdownMenu.DropdownMenuSeparatorProps) {
  const { MenuSeparator: Separator } = useLibrary();
  return <Separator {...props} />;
}
