import { useId } from 'react';
import { SourcePicker, type SourceTab, type SourceValue } from '../../../components/SourcePicker';

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

/** A tool's input: the shared SourcePicker (URL / Upload / Gallery) under a visible heading. */
export function SourceField({ kind, value, onChange, defaultTab, label, disabled }: SourceFieldProps) {
  const id = useId();
  return (
    <div className="min-w-0">
      <p id={id} className="field-label">
        {label}
      </p>
      <SourcePicker
        kind={kind}
        value={value}
        onChange={onChange}
        defaultTab={defaultTab}
        disabled={disabled}
        label={kind === 'image' ? 'Image source' : 'Video source'}
      />
    </div>
  );
}
