import type { Handlers } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { userOfficePage } from '../offices/reads.ts';

export const userHandlers: Pick<Handlers, 'Users_GetUserOfficeInfo'> = {
  async Users_GetUserOfficeInfo({ params, caller, services }) {
    if (caller.kind !== 'staff') throw new HttpProblem(401, 'Sign-in is required.');
    const { results } = await userOfficePage(services.db, caller.userId, -1, 1);
    const link = results.find((office) => office.officeId === params.officeId);
    if (!link) throw new HttpProblem(404, 'The office could not be found.');
    return { status: 200, body: link };
  },
};
