import { Download, Eye, EllipsisVertical, Trash2 } from 'lucide-react';
import { useNavigate } from 'react-router';
import clsx from 'clsx';
import { Menu, MenuItem, MenuSeparator } from '../../components/Menu';
import { toolViewId, viewPath, type ViewId } from '../dashboard/view-ids';
import { webTools } from '../tools/form/registry';
import { downloadHref } from './api';
import type { LibraryItem } from '../../lib/library';

/** The tools a library picture can be handed to: every registered tool that takes an image, with its dashboard icon. */
const imageTools = () => webTools().filter((t) => t.info.input === 'image');

/** The address that opens a tool with this library item already chosen as its source. */
export function toolWithSource(view: ViewId, itemId: string): string {
  return `${viewPath(view)}?source=${encodeURIComponent(itemId)}`;
}

/**
 * A tile's actions in one menu (open, download, use in a tool, delete): on a phone there is no hover
 * to reveal them, so the menu button is always shown there.
 */
export function TileActions({
  item,
  onOpen,
  onDelete,
  deleteLocked,
}: {
  item: LibraryItem;
  onOpen: (item: LibraryItem) => void;
  onDelete: (item: LibraryItem) => void;
  deleteLocked: boolean;
}) {
  const navigate = useNavigate();
  const ready = !!item.url;
  return (
    <Menu
      modal={false}
      trigger={{
        'aria-label': `Actions for ${item.original_name}`,
        className: clsx(
          'absolute top-2 right-12 flex size-8 items-center justify-center rounded-full bg-black/60 text-zinc-200 transition hover:bg-zinc-700 hover:text-white',
          // An image tile shown as a card (phone widths): in the bar under the picture, where Delete is a menu item.
          '@max-[218px]/tile:top-auto @max-[218px]/tile:right-1.5 @max-[218px]/tile:bottom-2.5 @max-[218px]/tile:bg-zinc-800 @max-[218px]/tile:opacity-100',
          'opacity-100 sm:[@media(hover:hover)]:opacity-0 [@media(hover:hover)]:group-hover:opacity-100 [@media(hover:hover)]:group-focus-within:opacity-100 data-[state=open]:opacity-100',
        ),
        children: <EllipsisVertical className="size-4" aria-hidden="true" />,
      }}
    >
      <MenuItem onSelect={() => onOpen(item)}>
        <Eye className="size-4" aria-hidden="true" /> Open
      </MenuItem>
      {ready && (
        <MenuItem asChild>
          <a href={downloadHref(item)} download={item.original_name}>
            <Download className="size-4" aria-hidden="true" /> Download
          </a>
        </MenuItem>
      )}
      {ready &&
        imageTools().map((t) => (
          <MenuItem key={t.info.endpoint} onSelect={() => navigate(toolWithSource(toolViewId(t), item.id))}>
            <t.icon className="size-4" aria-hidden="true" /> Use in {t.info.price.displayName}
          </MenuItem>
        ))}
      <MenuSeparator className="my-1 h-px bg-zinc-800" />
      <MenuItem className="text-rose-300" disabled={deleteLocked} onSelect={() => onDelete(item)}>
        <Trash2 className="size-4" aria-hidden="true" /> Delete
      </MenuItem>
    </Menu>
  );
}
