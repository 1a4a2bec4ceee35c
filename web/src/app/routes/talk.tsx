import { Navigate, useParams, useSearchParams } from 'react-router';
import { useDeskLayout } from '@/components/layouts/app-layout';
import { phoneFor } from '@/features/call/controller';
import { TalkScreen } from '@/features/talk/components/talk-screen';
import { DeskConsole } from '../desk-console-lazy';

/**
 * /talk/:id and /talk/staff/:id: one talk; anything but a conversation id goes home. Staff on a screen of
 * 1024 px or more get the desk (product.md §2.6) around it; `?m=` opens the talk at a found message.
 */
export default function TalkRoute() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const desk = useDeskLayout();
  const conversationId = /^\d{1,15}$/.test(id ?? '') ? Number(id) : 0;
  const found = /^\d{1,15}$/.test(params.get('m') ?? '') ? Number(params.get('m')) : null;
  if (!conversationId) return <Navigate to="/" replace />;
  if (desk) return <DeskConsole conversationId={conversationId} focusMessageId={found} />;
  // A new key starts afresh when going from one talk to another.
  return (
    <TalkScreen
      key={conversationId}
      conversationId={conversationId}
      focusMessageId={found}
      phoneFor={phoneFor}
    />
  );
}
