import {
  jaMember,
  type ImportColumn,
  type MemberImportPreviewReply,
  type MemberImportReply,
} from '@enishi/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ChangeEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Phrases } from '@/components/ui/phrases';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { toastSuccess } from '@/lib/toast';
import { downloadText } from '@/lib/download';
import { fileAsBase64, previewImport, runImport, type ImportKind } from '../api/import-members';

const t = jaMember.memberImport;
const f = jaMember.members.fields;

const columnsOf = (kind: ImportKind): ImportColumn[] =>
  kind === 'men'
    ? ['name', 'name_kana', 'id', 'rank', 'introducer']
    : ['name', 'name_kana', 'id', 'introducer'];

/**
 * CSVインポート (product.md §2.8): a file in the export's format is previewed row by row with the errors of
 * each cell; 取り込む writes every row or none; the first passwords are offered once as a download.
 */
/** The import's steps: the chosen file read and previewed, then imported; what to show of each. */
function useImport(kind: ImportKind) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<string | null>(null);
  const [preview, setPreview] = useState<MemberImportPreviewReply | null>(null);
  const [done, setDone] = useState<MemberImportReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'reading' | 'importing' | null>(null);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    setPreview(null);
    setDone(null);
    setError(null);
    setFile(null);
    if (!chosen) return;
    setBusy('reading');
    try {
      const encoded = await fileAsBase64(chosen);
      setPreview(await previewImport(kind, encoded));
      setFile(encoded);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  }

  async function submit() {
    if (!file) return;
    setBusy('importing');
    setError(null);
    try {
      const result = await runImport(kind, file);
      setDone(result);
      setPreview(null);
      setFile(null);
      toastSuccess(t.done(result.count));
      await queryClient.invalidateQueries({ queryKey: ['members/table'] });
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  }

  return { preview, done, error, busy, choose, submit };
}

export function ImportPanel({ kind, onClose }: { kind: ImportKind; onClose: () => void }) {
  const headingId = useId();
  const { preview, done, error, busy, choose, submit } = useImport(kind);
  return (
    <section className="member-import" aria-labelledby={headingId}>
      <h2 id={headingId} className="member-import__title">
        {t.title(jaMember.members.kinds[kind])}
      </h2>
      <p className="member-import__lead">
        <Phrases text={t.lead} />
      </p>
      <div className="member-import__controls">
        <label className="member-import__file">
          <span>{t.file}</span>
          <input type="file" accept=".csv,text/csv" onChange={(event) => void choose(event)} />
        </label>
        <Button type="button" variant="secondary" onClick={onClose}>
          {t.cancel}
        </Button>
      </div>
      {busy === 'reading' ? <Spinner label={t.reading} /> : null}
      {error ? (
        <p className="member-import__error" role="alert">
          {error}
        </p>
      ) : null}
      {done ? <FirstPasswords done={done} /> : null}
      {preview ? (
        <>
          <PreviewTable kind={kind} preview={preview} />
          <Button
            type="button"
            busy={busy === 'importing'}
            disabled={preview.error_count > 0 || busy !== null}
            onClick={() => void submit()}
          >
            {busy === 'importing' ? t.importing : t.submit}
          </Button>
        </>
      ) : null}
    </section>
  );
}

/** The first passwords, offered once as a download (ID, 初回パスワード). */
function FirstPasswords({ done }: { done: MemberImportReply }) {
  return (
    <div className="member-import__done" role="status">
      <h3 className="member-import__subtitle">{t.passwordsTitle}</h3>
      <p>
        <Phrases text={t.done(done.count)} />
      </p>
      <p>
        <Phrases text={t.passwordsLead} />
      </p>
      <Button type="button" onClick={() => downloadText(done.file_name, done.csv)}>
        {t.passwordsDownload}
      </Button>
    </div>
  );
}

/** Every row of the file, its line first, each bad cell with its Japanese error under the value. */
function PreviewTable({ kind, preview }: { kind: ImportKind; preview: MemberImportPreviewReply }) {
  const columns = columnsOf(kind);
  return (
    <>
      <p className="member-import__summary" role="status">
        {t.summary(preview.count, preview.error_count)}
      </p>
      <div className="member-import__scroll">
        <table className="member-import__table">
          <caption className="visually-hidden">{t.file}</caption>
          <thead>
            <tr>
              <th scope="col">{t.line}</th>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {f[column]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row) => (
              <tr
                key={row.line}
                className={Object.keys(row.errors).length > 0 ? 'member-import__bad' : undefined}
              >
                <th scope="row">{row.line}</th>
                {columns.map((column) => (
                  <td key={column}>
                    <span>{row.cells[column] ?? ''}</span>
                    {row.errors[column] ? (
                      <span className="member-import__cell-error">{row.errors[column]}</span>
                    ) : null}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
