import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SourcePicker, sourceFromItem, type SourceTab, type SourceValue } from '../../library/SourcePicker';
import { fetchLibraryItem } from '../../library/api';

export type { SourceValue };

export interface SourceFieldProps {
  kind: 'image' | 'video';
  value: SourceValue | null;
  onChange: (v: SourceValue | null) => void;
  defaultTab?: SourceTab;
  /** Visible heading above the picker (e.g. 'Image'). */
  label: string;
  disabled?: boolean;
}

/**
 * A library item handed over in the address (`?source=<id>`, from a gallery tile's 'Use in ...'):
 * picked once it loads, then the parameter leaves the address so a reload does not pick it again.
 */
function useSourceFromAddress(kind: 'image' | 'video', onChange: (v: SourceValue) => void) {
  const location = useLocation();
  const navigate = useNavigate();
  const id = new URLSearchParams(location.search).get('source');
  useEffect(() => {
    if (!id) return;
    const ctrl = new AbortController();
    fetchLibraryItem(id, ctrl.signal)
      .then((item) => {
        if (item.kind === kind && item.url) onChange(sourceFromItem(item));
      })
      .catch(() => {})
      .finally(() => {
        if (ctrl.signal.aborted) return;
        const params = new URLSearchParams(location.search);
        params.delete('source');
        const search = params.toString();
        navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true, state: location.state });
      });
    return () => ctrl.abort();
  }, [id]); // eslint-disable-line react-hooks/exhaustive-deps
}

/** A tool's input: the shared SourcePicker (URL / Upload / Gallery) under a visible heading. */
export function SourceField({ label, ...picker }: SourceFieldProps) {
  useSourceFromAddress(picker.kind, picker.onChange);
  return (
    <div className="min-w-0">
      <p className="field-label">{label}</p>
      <SourcePicker {...picker} />
    </div>
  );
}
