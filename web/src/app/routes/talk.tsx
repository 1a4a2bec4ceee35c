import { Navigate, useParams } from 'react-router';
import { TalkScreen } from '@/features/talk/components/talk-screen';

/** /talk/:id and /talk/staff/:id: one talk; anything but a conversation id goes home. */
export default function TalkRoute() {
  const { id } = useParams();
  const conversationId = /^\d{1,15}$/.test(id ?? '') ? Number(id) : 0;
  if (!conversationId) return <Navigate to="/" replace />;
  // A new key starts afresh when going from one talk to another.
  return <TalkScreen key={conversationId} conversationId={conversationId} />;
}
