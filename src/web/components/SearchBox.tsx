import { useId } from 'react';
import { Loader2, Search } from 'lucide-react';

/** A list's search field: its label for screen readers, a magnifier, and a spinner while a new search loads. */
export function SearchBox({
  label,
  placeholder,
  value,
  onChange,
  searching,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  searching: boolean;
}) {
  const id = useId();
  return (
    <div className="relative">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-zinc-400" aria-hidden="true" />
      <input id={id} type="search" value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} className="input pl-10" autoComplete="off" />
      {searching && <Loader2 className="absolute top-1/2 right-3.5 size-4 -translate-y-1/2 animate-spin text-zinc-400" aria-label="Searching" />}
    </div>
  );
}
