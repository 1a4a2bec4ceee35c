import './spinner.css';

/** A quiet, indeterminate loading mark. */
export function Spinner({ label }: { label: string }) {
  return (
    <div className="spinner">
      <span className="spinner__ring" role="progressbar" aria-label={label} />
    </div>
  );
}
