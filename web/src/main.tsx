import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app';
import { startChatSocket } from '@/lib/chat/socket';
import { startAppBadge } from '@/lib/notifications';
import { startServiceWorker } from '@/lib/pwa';
import { startPushDevice } from '@/lib/push-subscription';
import '@/styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

void startServiceWorker();
startChatSocket();
startAppBadge();
startPushDevice();
