import type { Handlers } from '../../http/handler-types.ts';
import { fileAnswer, fileContent, publicFileContent } from './content.ts';
import { fileOfLink } from './links.ts';

const rangeOf = (header: string | string[] | undefined) => (typeof header === 'string' ? header : undefined);

export const fileHandlers: Pick<Handlers, 'Files_GetContent' | 'Files_GetPublicContent' | 'Files_GetContentByLink'> = {
  async Files_GetContent({ params, services, request }) {
    return fileAnswer(await fileContent(services.db, params.id), rangeOf(request.headers.range), 'attachment');
  },
  async Files_GetPublicContent({ params, services, request }) {
    return fileAnswer(await publicFileContent(services.db, params.id), rangeOf(request.headers.range), 'inline');
  },
  async Files_GetContentByLink({ params, services, request }) {
    const fileId = fileOfLink(services.settings.borrowerTokenSecret, params.token);
    return fileAnswer(await fileContent(services.db, fileId), rangeOf(request.headers.range), 'inline');
  },
};
