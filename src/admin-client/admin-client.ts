import { Readable } from 'node:stream'
import { ADMIN_ROUTES, ADMIN_STREAMS, adminPath, type AdminRoute, type AdminRouteName, type RouteInput, type RouteResult } from '../admin-api/admin-routes.ts'
import type {
  AdminRequest,
  DeployContractsResult,
  AdminErrorBody,
  ApproveKeyRequestRequest,
  ApproveKeyRequestResult,
  ApproveRegistrationRequest,
  ApproveRegistrationResult,
  BlockEntry,
  BlockRequest,
  BlockType,
  DaemonStatus,
  DeskSettings,
  DeskUpdate,
  Deployments,
  DevnetLaunchRequest,
  DevnetLaunchResult,
  DevnetSwapRequest,
  DevnetSwapResult,
  FundRequest,
  FundResult,
  KeySummary,
  MineResult,
  ProfileUpdate,
  ProjectRecord,
  RemoveBlockResult,
  ReviewItem,
  ReviewKind,
  ReviewStatus,
  RevokeKeyResult,
  LaunchCandidatesQuery,
  SimulationQueryRequest,
  LaunchCandidatesResult,
  LaunchCandidateView,
  ProjectBindingRequest,
  ConfirmChangeRequest,
  RejectChangeRequest,
  PendingChangeItemView,
  ConfirmChangeResult,
  RejectChangeResult,
  OtcResult,
  DevBuyResult,
  LaunchSimulation,
  OtcOfferRequest,
  DevBuyParamsRequest,
  ExecutionJournal,
  LaunchDetail,
  LaunchSummary,
  LinkSocialRequest,
  LinkSocialResult,
  OperatorOrderView,
  OperatorProjectDetail,
  RotateKeyResult,
  UpdateBindingResult,
} from '../admin-api/contract.ts'

/** An admin API call that the daemon refused or could not answer; `message` is the daemon's own explanation. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    /** The daemon's machine code (AdminErrorBody); absent when it did not answer with one. */
    readonly code?: string,
  ) {
    super(message)
    this.name = 'AdminApiError'
  }
}

type AdminAnswer<Name extends AdminRouteName> = RouteResult<(typeof ADMIN_ROUTES)[Name]>
/** A route's input, left out where it has none (no `:id`, query or body). */
type InputArgs<Name extends AdminRouteName> =
  Record<never, never> extends RouteInput<(typeof ADMIN_ROUTES)[Name]>
    ? [input?: RouteInput<(typeof ADMIN_ROUTES)[Name]>]
    : [input: RouteInput<(typeof ADMIN_ROUTES)[Name]>]

/**
 * The admin API as the CLI calls it. `call(name, input)` calls any row of the route table (src/admin-api/
 * admin-routes.ts) and answers what the daemon answered: a new operation needs nothing here. The named methods below
 * are the older shorthands, each one `call` (some unwrap a list's `items` or a result's one record).
 */
export interface AdminClient {
  call<Name extends AdminRouteName>(name: Name, ...input: InputArgs<Name>): Promise<AdminAnswer<Name>>
  status(): Promise<DaemonStatus>
  /** A consistent backup of the daemon's store and data dir secrets, as the gzip stream the daemon sends. */
  backup(): Promise<Readable>
  listReviews(kind: ReviewKind, status?: ReviewStatus): Promise<ReviewItem[]>
  approveRegistration(id: string, request: ApproveRegistrationRequest): Promise<ApproveRegistrationResult>
  rejectRegistration(id: string, note?: string): Promise<ReviewItem>
  approveKeyRequest(id: string, request?: ApproveKeyRequestRequest): Promise<ApproveKeyRequestResult>
  rejectKeyRequest(id: string, note?: string): Promise<ReviewItem>
  listProjects(): Promise<ProjectRecord[]>
  updateProfile(slug: string, update: ProfileUpdate): Promise<ProjectRecord>
  updateBinding(slug: string, request: ProjectBindingRequest): Promise<UpdateBindingResult>
  getOtc(slug: string): Promise<OtcResult>
  simulateLaunch(slug: string, query?: SimulationQueryRequest): Promise<LaunchSimulation>
  setOtc(slug: string, request: OtcOfferRequest): Promise<OtcResult>
  depositOtc(slug: string): Promise<OtcResult>
  cancelOtc(slug: string): Promise<OtcResult>
  getDevBuy(slug: string): Promise<DevBuyResult>
  setDevBuy(slug: string, request: DevBuyParamsRequest): Promise<DevBuyResult>
  launchDevBuy(slug: string): Promise<DevBuyResult>
  /** Owners' changes of what the orders buy waiting for the operator or their notice period. */
  pendingChanges(): Promise<PendingChangeItemView[]>
  confirmChange(slug: string, request?: ConfirmChangeRequest): Promise<ConfirmChangeResult>
  rejectChange(slug: string, request: RejectChangeRequest): Promise<RejectChangeResult>
  launchCandidates(query?: LaunchCandidatesQuery): Promise<LaunchCandidatesResult>
  confirmLaunch(slug: string, token: string): Promise<LaunchCandidateView>
  executionJournal(slug: string): Promise<ExecutionJournal>
  rotateKey(idOrLabel: string): Promise<RotateKeyResult>
  linkSocial(idOrLabel: string, request: LinkSocialRequest): Promise<LinkSocialResult>
  listOrders(query: { project: string } | { key: string }): Promise<OperatorOrderView[]>
  listLaunches(): Promise<LaunchSummary[]>
  getLaunch(slug: string): Promise<LaunchDetail>
  getProject(slug: string): Promise<OperatorProjectDetail>
  listKeys(): Promise<KeySummary[]>
  revokeKey(idOrLabel: string): Promise<RevokeKeyResult>
  getDesk(): Promise<DeskSettings>
  setDesk(update: DeskUpdate): Promise<DeskSettings>
  listBlocklist(): Promise<BlockEntry[]>
  addBlock(request: BlockRequest): Promise<BlockEntry>
  removeBlock(type: BlockType, value: string): Promise<RemoveBlockResult>
  devnetFund(request: FundRequest): Promise<FundResult[]>
  devnetMine(blocks: number): Promise<MineResult>
  devnetDeployments(): Promise<Deployments>
  devnetLaunch(request: DevnetLaunchRequest): Promise<DevnetLaunchResult>
  devnetSwap(request: DevnetSwapRequest): Promise<DevnetSwapResult>
  /** `prebuy contracts deploy`: this service's own contracts on a chain, deployed where missing. */
  deployContracts(request: AdminRequest<'deployContracts'>): Promise<DeployContractsResult>
}

const parseJson = (text: string): unknown => {
  try {
    return text === '' ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Typed client of the daemon's admin API (daemon/admin). */
export function createAdminClient(options: { adminUrl: string; operatorToken: string; fetch?: typeof fetch }): AdminClient {
  const doFetch = options.fetch ?? fetch
  /** Sends a request; answers an error status with the daemon's error as an AdminApiError. */
  const send = async (method: string, path: string, body?: unknown): Promise<Response> => {
    let response: Response
    try {
      response = await doFetch(new URL(path, options.adminUrl), {
        method,
        headers: {
          authorization: `Bearer ${options.operatorToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    } catch (error) {
      throw new AdminApiError(0, 'Unreachable', `cannot reach the daemon's admin API at ${options.adminUrl}: ${(error as Error).message}`)
    }
    if (!response.ok) {
      const text = await response.text()
      const errorBody = (parseJson(text) ?? {}) as Partial<AdminErrorBody>
      throw new AdminApiError(response.status, errorBody.error ?? `HTTP ${response.status}`, errorBody.message ?? text, errorBody.code)
    }
    return response
  }
  const call = async <Name extends AdminRouteName>(name: Name, ...[input]: InputArgs<Name>): Promise<AdminAnswer<Name>> => {
    const route: AdminRoute = ADMIN_ROUTES[name]
    const given = (input ?? {}) as { id?: string; query?: Record<string, unknown>; body?: unknown }
    // A POST without a body sends `{}` (the daemon parses a JSON body); other methods without one send nothing.
    const body = route.body ? given.body : route.method === 'POST' ? {} : undefined
    return parseJson(await (await send(route.method, adminPath(route, given), body)).text()) as AdminAnswer<Name>
  }
  return {
    call,
    status: () => call('status'),
    backup: async () => {
      const response = await send(ADMIN_STREAMS.backup.method, ADMIN_STREAMS.backup.path)
      if (!response.body) throw new AdminApiError(response.status, 'Empty', 'the daemon sent an empty backup')
      return Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)
    },
    listReviews: async (kind, status) => (await call('listReviews', { query: { kind, ...(status ? { status } : {}) } })).items,
    approveRegistration: (id, body) => call('approveRegistration', { id, body }),
    rejectRegistration: async (id, note) => (await call('rejectRegistration', { id, body: note === undefined ? {} : { note } })).review,
    approveKeyRequest: (id, body = {}) => call('approveKeyRequest', { id, body }),
    rejectKeyRequest: async (id, note) => (await call('rejectKeyRequest', { id, body: note === undefined ? {} : { note } })).review,
    listProjects: async () => (await call('listProjects')).items,
    updateProfile: async (id, body) => (await call('updateProfile', { id, body })).project,
    getOtc: (id) => call('getOtc', { id }),
    simulateLaunch: (id, query = {}) => call('simulateLaunch', { id, query }),
    setOtc: (id, body) => call('setOtc', { id, body }),
    depositOtc: (id) => call('depositOtc', { id }),
    cancelOtc: (id) => call('cancelOtc', { id }),
    getDevBuy: (id) => call('getDevBuy', { id }),
    setDevBuy: (id, body) => call('setDevBuy', { id, body }),
    launchDevBuy: (id) => call('launchDevBuy', { id }),
    updateBinding: (id, body) => call('updateBinding', { id, body }),
    pendingChanges: async () => (await call('pendingChanges')).items,
    confirmChange: (id, body = {}) => call('confirmChange', { id, body }),
    rejectChange: (id, body) => call('rejectChange', { id, body }),
    launchCandidates: (query = {}) => call('launchCandidates', { query }),
    executionJournal: (id) => call('executionJournal', { id }),
    rotateKey: (id) => call('rotateKey', { id }),
    linkSocial: (id, body) => call('linkSocial', { id, body }),
    listOrders: async (query) => (await call('listOrders', { query })).items,
    listLaunches: async () => (await call('listLaunches')).items,
    getLaunch: (id) => call('getLaunch', { id }),
    getProject: (id) => call('getProject', { id }),
    confirmLaunch: async (id, token) => (await call('confirmLaunch', { id, body: { token } })).candidate,
    listKeys: async () => (await call('listKeys')).items,
    revokeKey: (id) => call('revokeKey', { id }),
    getDesk: () => call('getDesk'),
    setDesk: (body) => call('setDesk', { body }),
    listBlocklist: async () => (await call('listBlocklist')).items,
    addBlock: async (body) => (await call('addBlock', { body })).entry,
    removeBlock: (type, value) => call('removeBlock', { body: { type, value } }),
    devnetFund: async (body) => (await call('devnetFund', { body })).funded,
    devnetMine: (blocks) => call('devnetMine', { body: { blocks } }),
    devnetDeployments: () => call('devnetDeployments'),
    devnetLaunch: (body) => call('devnetLaunch', { body }),
    devnetSwap: (body) => call('devnetSwap', { body }),
    deployContracts: (body) => call('deployContracts', { body }),
  }
}
