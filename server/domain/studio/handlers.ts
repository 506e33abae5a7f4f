import type { Handlers } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { signInHosts } from '../../identity/provider.ts';
import { builtFiles, liveSet, setByHash } from '../../descriptors/live.ts';
import { overlaid } from '../../../core/descriptors/set.ts';
import { tryLender } from './try-lender.ts';
import { APPROVAL_NEEDED, askReview, decideReview, reviewList } from './reviews.ts';
import { saveStudioDrafts, studioDraftsOf } from './drafts.ts';
import { checkDraft, publicationHistory, publishDraft, rollBack, revertPublication, unapprovedHosts } from './publish.ts';
import { forTheBrowser } from '../../../core/descriptors/browser-parts.ts';
import { kindOfPath } from '../../../core/descriptors/kinds.ts';

type Studio = 'Descriptors_GetLive' | 'Descriptors_GetSet' | 'Studio_GetFiles' | 'Studio_CheckDraft' | 'Studio_Publish' | 'Studio_GetHistory' | 'Studio_Rollback' | 'Studio_Revert' | 'Studio_TryLender' | 'Studio_GetDrafts' | 'Studio_SaveDraft' | 'Studio_AskReview' | 'Studio_GetReviews' | 'Studio_DecideReview';

/** The published descriptor set, and the product owner's studio (decision 0228; access: x-access product.owner). */
export const studioHandlers: Pick<Handlers, Studio> = {
  async Descriptors_GetLive({ services }) {
    return { status: 200, body: { hash: (await liveSet(services.db)).hash } };
  },
  async Descriptors_GetSet({ params, services }) {
    const set = await setByHash(services.db, params.hash);
    if (!set) throw new HttpProblem(404, 'There is no such descriptor set.');
    // Named by its content, it never changes (x-cache: immutable). Visitors get what their pages read, as the bundle has it.
    const files = Object.fromEntries(Object.entries(set.served).map(([path, doc]) => [path, forTheBrowser(kindOfPath(path), doc as Record<string, unknown>)]));
    return { status: 200, body: { hash: set.hash, files } };
  },
  async Studio_GetFiles({ services }) {
    const live = await liveSet(services.db);
    const deployed = new Set(builtFiles().map((file) => file.relative));
    const files = overlaid(builtFiles(), live.overlay)
      .filter((file) => file.kind)
      .sort((a, b) => a.relative.localeCompare(b.relative))
      .map((file) => ({
        path: file.relative, kind: file.kind!, doc: JSON.parse(file.text) as Record<string, unknown>, published: file.relative in live.overlay, deployed: deployed.has(file.relative),
      }));
    return { status: 200, body: { hash: live.hash, files } };
  },
  async Studio_CheckDraft({ body, services }) {
    const { identity } = services.settings;
    const notices = identity.kind === 'builtin' ? unapprovedHosts(body.files, signInHosts(identity)) : [];
    return { status: 200, body: { ...(await checkDraft(await liveSet(services.db), body.files)), notices } };
  },
  async Studio_Publish({ body, caller, services }) {
    if (caller.kind !== 'staff') throw new HttpProblem(401, 'Sign-in is required.');
    if (services.settings.studioApprovals === 'required') throw HttpProblem.conflict(APPROVAL_NEEDED);
    return { status: 200, body: await publishDraft(services, { by: caller.userId }, body.files, body.note, body.publishOutOfDate) };
  },
  async Studio_TryLender({ body, services }) {
    return { status: 200, body: await tryLender(services, body) };
  },
  async Studio_GetHistory({ services }) {
    return { status: 200, body: await publicationHistory(services.db) };
  },
  async Studio_Rollback({ body, caller, services }) {
    if (caller.kind !== 'staff') throw new HttpProblem(401, 'Sign-in is required.');
    return { status: 200, body: await rollBack(services, caller.userId, body.id, body.note) };
  },
  async Studio_GetDrafts({ caller, services }) {
    if (caller.kind !== 'staff') throw new HttpProblem(401, 'Sign-in is required.');
    return { status: 200, body: await studioDraftsOf(services.db, caller.userId) };
  },
  async Studio_SaveDraft({ body, caller, services }) {
    if (caller.kind !== 'staff') throw new HttpProblem(401, 'Sign-in is required.');
    return { status: 200, body: await saveStudioDrafts(services.db, caller.userId, body.files) };
  },
  async Studio_AskReview({ body, caller, services }) {
    if (caller.kind !== 'staff') throw new HttpProblem(401, 'Sign-in is required.');
    return { status: 200, body: await askReview(services, caller.userId, body) };
  },
  async Studio_GetReviews({ caller, services }) {
    if (caller.kind !== 'staff') throw new HttpProblem(401, 'Sign-in is required.');
    return { status: 200, body: await reviewList(services.db, services.settings, caller.userId) };
  },
  async Studio_DecideReview({ body, caller, services }) {
    if (caller.kind !== 'staff') throw new HttpProblem(401, 'Sign-in is required.');
    return { status: 200, body: await decideReview(services, caller.userId, body) };
  },
  async Studio_Revert({ body, caller, services }) {
    if (caller.kind !== 'staff') throw new HttpProblem(401, 'Sign-in is required.');
    return { status: 200, body: await revertPublication(services, caller.userId, body.id, body.note) };
  },
};
