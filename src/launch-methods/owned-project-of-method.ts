import type { ErrorCode } from '../common/error-codes.ts'
import { PrebuyError } from '../common/errors.ts'
import type { LaunchMethod, ProjectRecord } from '../domain/records.ts'
import type { Store } from '../store/open-store.ts'

/** Who manages a project's launch method: the key that owns the project, or the operator. */
export type LaunchMethodActor = { ownerKeyId: string } | 'operator'

/**
 * The project `actor` may manage through a launch method's endpoints: it exists, the actor owns it (the operator owns
 * every project) and it uses `method` (else `wrongMethod`). `what` names the thing managed in the refusal.
 */
export async function ownedProjectOfMethod(
  store: Store,
  slug: string,
  actor: LaunchMethodActor,
  method: { launchMethod: LaunchMethod; wrongMethod: ErrorCode; what: string },
): Promise<ProjectRecord> {
  const project = await store.sub.projects.get(slug)
  if (!project) throw new PrebuyError('project_not_found', 'No project has this slug.')
  if (actor !== 'operator' && (project.ownerKeyId === null || project.ownerKeyId !== actor.ownerKeyId)) {
    throw new PrebuyError('not_project_owner', `Only the key that owns the project may manage its ${method.what}.`)
  }
  if (project.launchMethod !== method.launchMethod) {
    throw new PrebuyError(method.wrongMethod, `The project's launch method is ${project.launchMethod}, not ${method.launchMethod}.`)
  }
  return project
}
