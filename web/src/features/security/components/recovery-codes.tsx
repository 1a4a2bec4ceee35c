import { jaMember } from '@enishi/contract';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Phrases } from '@/components/ui/phrases';

/** New recovery codes, shown this once (product.md §11.7): copy or save them as a text file. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const text = codes.join('\n');

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast(jaMember.security.recoveryCopied);
    } catch {
      // Clipboard refused (an old browser, no permission): the codes stay selectable on screen.
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = jaMember.security.recoveryFileName;
    link.click();
    URL.revokeObjectURL(url);
    toast(jaMember.security.recoverySaved);
  }

  return (
    <div className="security__codes" role="region" aria-label={jaMember.security.recoveryTitle}>
      <p className="security__warning">
        <Phrases text={jaMember.security.recoveryShowOnce} />
      </p>
      <ol className="security__code-list" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="security__actions">
        <Button variant="secondary" onClick={() => void copy()}>
          {jaMember.security.recoveryCopy}
        </Button>
        <Button variant="secondary" onClick={download}>
          {jaMember.security.recoveryDownload}
        </Button>
      </div>
    </div>
  );
}
