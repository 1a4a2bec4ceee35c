// The smallest React app, built with the same Vite setup: the yardstick for the app's initial JS.
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(<h1>hello, world</h1>);
