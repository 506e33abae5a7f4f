import type { Handlers } from '../../http/handler-types.ts';
import { fileAnswer, fileContent, publicFileContent } from './content.ts';

const rangeOf = (header: string | string[] | undefined) => (typeof header === 'string' ? header : undefined);

export const fileHandlers: Pick<Handlers, 'Files_GetContent' | 'Files_GetPublicContent'> = {
  async Files_GetContent({ params, services, request }) {
    return fileAnswer(await fileContent(services.db, params.id), rangeOf(request.headers.range), 'attachment');
  },
  async Files_GetPublicContent({ params, services, request }) {
    return fileAnswer(await publicFileContent(services.db, params.id), rangeOf(request.headers.range), 'inline');
  },
};
