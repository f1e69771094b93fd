import { Readable } from 'node:stream'
import type {
  AdminRequest,
  DeployContractsResult,
  AddBlockResult,
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
  DevnetFundResult,
  DevnetLaunchRequest,
  DevnetLaunchResult,
  DevnetSwapRequest,
  DevnetSwapResult,
  FundRequest,
  FundResult,
  KeySummary,
  ListResponse,
  MineResult,
  ProfileUpdate,
  ProjectRecord,
  RejectResult,
  RemoveBlockResult,
  ReviewItem,
  ReviewKind,
  ReviewStatus,
  RevokeKeyResult,
  UpdateProfileResult,
  ConfirmLaunchResult,
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
  UpdateBindingResult,
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
  OrderView,
  ProjectDetail,
  RotateKeyResult,
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

export interface AdminClient {
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
  listOrders(query: { project: string } | { key: string }): Promise<OrderView[]>
  listLaunches(): Promise<LaunchSummary[]>
  getLaunch(slug: string): Promise<LaunchDetail>
  getProject(slug: string): Promise<ProjectDetail>
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
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => parseJson(await (await send(method, path, body)).text()) as T
  const enc = encodeURIComponent
  return {
    status: () => call('GET', '/admin/v1/status'),
    backup: async () => {
      const response = await send('GET', '/admin/v1/backup')
      if (!response.body) throw new AdminApiError(response.status, 'Empty', 'the daemon sent an empty backup')
      return Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)
    },
    listReviews: async (kind, status) =>
      (await call<ListResponse<ReviewItem>>('GET', `/admin/v1/reviews?kind=${kind}${status ? `&status=${status}` : ''}`)).items,
    approveRegistration: (id, request) => call('POST', `/admin/v1/registrations/${enc(id)}/approve`, request),
    rejectRegistration: async (id, note) =>
      (await call<RejectResult>('POST', `/admin/v1/registrations/${enc(id)}/reject`, note === undefined ? {} : { note })).review,
    approveKeyRequest: (id, request = {}) => call('POST', `/admin/v1/key-requests/${enc(id)}/approve`, request),
    rejectKeyRequest: async (id, note) =>
      (await call<RejectResult>('POST', `/admin/v1/key-requests/${enc(id)}/reject`, note === undefined ? {} : { note })).review,
    listProjects: async () => (await call<ListResponse<ProjectRecord>>('GET', '/admin/v1/projects')).items,
    updateProfile: async (slug, update) => (await call<UpdateProfileResult>('PATCH', `/admin/v1/projects/${enc(slug)}`, update)).project,
    getOtc: (slug) => call('GET', `/admin/v1/projects/${enc(slug)}/otc`),
    simulateLaunch: (slug, query = {}) =>
      call(
        'GET',
        `/admin/v1/projects/${enc(slug)}/simulation${query.startFdvUsdc === undefined ? '' : `?${new URLSearchParams({ startFdvUsdc: query.startFdvUsdc })}`}`,
      ),
    setOtc: (slug, request) => call('PATCH', `/admin/v1/projects/${enc(slug)}/otc`, request),
    depositOtc: (slug) => call('POST', `/admin/v1/projects/${enc(slug)}/otc/deposit`, {}),
    cancelOtc: (slug) => call('DELETE', `/admin/v1/projects/${enc(slug)}/otc`),
    getDevBuy: (slug) => call('GET', `/admin/v1/projects/${enc(slug)}/dev-buy`),
    setDevBuy: (slug, request) => call('PATCH', `/admin/v1/projects/${enc(slug)}/dev-buy`, request),
    launchDevBuy: (slug) => call('POST', `/admin/v1/projects/${enc(slug)}/dev-buy/launch`, {}),
    updateBinding: (slug, request) => call<UpdateBindingResult>('PATCH', `/admin/v1/projects/${enc(slug)}/binding`, request),
    pendingChanges: async () => (await call<ListResponse<PendingChangeItemView>>('GET', '/admin/v1/owner-changes')).items,
    confirmChange: (slug, request = {}) => call('POST', `/admin/v1/projects/${enc(slug)}/changes/confirm`, request),
    rejectChange: (slug, request) => call('POST', `/admin/v1/projects/${enc(slug)}/changes/reject`, request),
    launchCandidates: (query = {}) => {
      const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined))
      return call('GET', `/admin/v1/launches/candidates${params.size > 0 ? `?${params}` : ''}`)
    },
    executionJournal: (slug) => call('GET', `/admin/v1/launches/${enc(slug)}/journal`),
    rotateKey: (idOrLabel) => call('POST', `/admin/v1/keys/${enc(idOrLabel)}/rotate`, {}),
    linkSocial: (idOrLabel, request) => call('PUT', `/admin/v1/keys/${enc(idOrLabel)}/social`, request),
    listOrders: async (query) =>
      (await call<ListResponse<OrderView>>('GET', `/admin/v1/orders?${'project' in query ? `project=${enc(query.project)}` : `key=${enc(query.key)}`}`)).items,
    listLaunches: async () => (await call<ListResponse<LaunchSummary>>('GET', '/admin/v1/launches')).items,
    getLaunch: (slug) => call('GET', `/admin/v1/launches/${enc(slug)}`),
    getProject: (slug) => call('GET', `/admin/v1/projects/${enc(slug)}`),
    confirmLaunch: async (slug, token) => (await call<ConfirmLaunchResult>('POST', `/admin/v1/launches/${enc(slug)}/confirm`, { token })).candidate,
    listKeys: async () => (await call<ListResponse<KeySummary>>('GET', '/admin/v1/keys')).items,
    revokeKey: (idOrLabel) => call<RevokeKeyResult>('POST', `/admin/v1/keys/${enc(idOrLabel)}/revoke`, {}),
    getDesk: () => call('GET', '/admin/v1/desk'),
    setDesk: (update) => call('PUT', '/admin/v1/desk', update),
    listBlocklist: async () => (await call<ListResponse<BlockEntry>>('GET', '/admin/v1/blocklist')).items,
    addBlock: async (request) => (await call<AddBlockResult>('POST', '/admin/v1/blocklist', request)).entry,
    removeBlock: (type, value) => call('DELETE', '/admin/v1/blocklist', { type, value }),
    devnetFund: async (request) => (await call<DevnetFundResult>('POST', '/admin/v1/devnet/fund', request)).funded,
    devnetMine: (blocks) => call('POST', '/admin/v1/devnet/mine', { blocks }),
    devnetDeployments: () => call('GET', '/admin/v1/devnet/deployments'),
    devnetLaunch: (request) => call('POST', '/admin/v1/devnet/launch', request),
    devnetSwap: (request) => call('POST', '/admin/v1/devnet/swap', request),
    deployContracts: (request) => call('POST', '/admin/v1/contracts/deploy', request),
  }
}
