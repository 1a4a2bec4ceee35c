import { useLazyAction } from '@/lib/use-lazy-action';

const loadCreateEntry = () => import('../api/create-entry').then((module) => module.createEntry);

/** Sends the application (loading the call only when the form is used). */
export const useCreateEntry = () => useLazyAction(loadCreateEntry);
