import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app';
import { startServiceWorker } from '@/lib/pwa';
import '@/styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

void startServiceWorker();
