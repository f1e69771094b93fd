// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PrebuyBuyRouter, IPrebuyERC20} from "./PrebuyBuyRouter.sol";

interface IPrebuyTotalSupply {
    function totalSupply() external view returns (uint256);
}

/// @title PrebuyBatchBuyer
/// @notice One price per block: one transaction takes the stablecoin of many buyers' smart wallets (each approved this
///         contract ahead of the launch), buys the launch's token for all of them with ONE swap through
///         PrebuyBuyRouter (the same route and code as a single buy), checks the clearing price against the lowest
///         limit committed with the batch, and credits each buyer pro rata to what it paid, less the platform fee:
///         at once (`pushNow`) or as a committed allocation that anyone may sweep later.
/// @dev Entries are one word per buyer: address << 96 | amount (amount < 2^96), the cheapest calldata.
///      Allocation (the dust rule, the same integer formula as src/domain/batch/batch-allocation.ts):
///        gross_i = floor(tokensOut * paid_i / totalIn); fee_i = floor(gross_i * feeBps / 10,000); net_i = gross_i - fee_i;
///        the fee recipient gets tokensOut - sum(net_i) (every fee plus the floors' remainder).
///      The limit check (src/domain/batch/clearing-bound.ts): with L the lowest limit (stablecoin atoms of FDV, 0 = none)
///        and S the token's total supply, the batch reverts unless minPaid * (tokensOut * L - totalIn * S) >= totalIn * L,
///        which proves gross_i * L > paid_i * S for every buyer: each buyer's rounded share meets PrebuyBuyRouter's
///        own per-buy minimum for its spend at the lowest included limit, hence at its own.
///      A buyer whose pull fails (it withdrew or spent its funds, or revoked the approval) is skipped, not fatal: the
///        batch goes on without it (BuyerSkipped) at what is then a lower price for the others.
///      Idempotent by batch id: a batch id executes once, ever (a resubmission after a crash reverts with
///        BatchAlreadyExecuted and takes nothing); everything is reconcilable from chain: BatchExecuted carries the id
///        and totals, the entries are the transaction's calldata, the skipped buyers are events.
///      Only operators (the service's executor accounts) may execute, since the wallets' approvals are to this contract.
///      A last block: executeBatch and collect carry `validUntilBlock` and revert (BatchExpired) in any later block, so a
///        signed batch transaction that never landed cannot pull the wallets long after the executor gave it up (a node
///        that kept it, a rebroadcast after a reorg): the executor releases a batch's orders for a new batch only once
///        the chain is final past that block (docs/execution.md §8, "A last block for every pull").
///      Superseding: a batch released after a price revert (its transaction mined and reverted) is re-cleared at once in
///        the next block's batch under a new id, while a reorg could still bring its signed transaction back before its
///        last block. So the new batch names it (`supersedes`): it executes (or opens its collection) only if none it
///        names has pulled, and marks them dead (they revert BatchSuperseded); whichever lands first, at most one pulls
///        (docs/execution.md §8, "A price-reverted batch, superseded").
///
///      The split batch (more buyers than one transaction's gas holds, still ONE swap and one price): `collect` pulls one
///      chunk of buyers per transaction (several transactions, from several operator accounts, in the same block),
///      storing per chunk only the hash of its paid words and per batch the running total and smallest payment; `settle`
///      makes the one swap over everything collected, with the same limit check as executeBatch; `sweepChunk` credits
///      each chunk's buyers later with the same formula over the batch total (so the allocation is allocateBatch over
///      the chunks' paid words in order); `refund` returns each collected amount exactly when the batch can no longer
///      settle: the operator cancelled it, or SETTLE_WINDOW_BLOCKS passed since its first collect (then anyone may).
///      A batch id is either executeBatch's or the split's, never both.
contract PrebuyBatchBuyer {
    PrebuyBuyRouter public immutable router;
    address public immutable admin;

    uint256 private constant BPS = 10_000;
    uint256 private constant MAX_FEE_BPS = 1_000;

    mapping(address => bool) public operators;

    struct Batch {
        /// keccak256 of the paid words (a skipped buyer's word has amount 0) when the allocation is swept later; 0 when
        /// it was credited at once.
        bytes32 allocationHash;
        address token;
        address feeRecipient;
        uint96 totalIn;
        uint128 tokensOut;
        uint16 feeBps;
        bool executed;
        /// Sweep progress: buyers credited so far (a cursor) and the net tokens they got.
        uint32 swept;
        /// Dead: a later batch that re-cleared its orders named it (`supersedes`) and ran first; it can never pull now.
        ///      In the slot of `executed`, so checking it costs nothing more.
        bool superseded;
        uint128 netSwept;
    }

    mapping(bytes32 => Batch) public batches;

    /// Blocks after a split batch's first collect during which it may settle; after them it can only be refunded, by
    /// anyone. 300 blocks is one minute at Base's 200 ms blocks (docs.base.org/base-chain/specs/upgrades/denim/overview):
    /// settle follows the collects in the same or the next block, so this only bounds how long a crashed or vanished
    /// executor can hold buyers' funds, while leaving a restarted one time to settle.
    uint256 public constant SETTLE_WINDOW_BLOCKS = 300;

    uint8 private constant COLLECTING = 1;
    uint8 private constant SETTLED = 2;
    uint8 private constant CANCELLED = 3;

    /// A split batch's collection. Two slots, whatever the number of buyers.
    struct Collection {
        /// The stablecoin pulled (the first collect fixes it; settle's route and refunds use it).
        address stablecoin;
        /// The last block settle may land in (first collect's block + SETTLE_WINDOW_BLOCKS).
        uint40 settleBy;
        /// 0 none, 1 collecting, 2 settled, 3 cancelled.
        uint8 status;
        /// Buyers paid over all chunks.
        uint40 buyers;
        /// Stablecoin atoms pulled over all chunks: the swap's amount in.
        uint96 collected;
        /// The smallest single payment (the limit check's minPaid).
        uint96 minPaid;
        /// Chunks collected, and chunks finished (swept to their end or refunded to their end).
        uint32 chunks;
        uint32 chunksDone;
    }

    /// One collected chunk: the hash of its paid words (entries with a skipped buyer's amount zeroed), its size and a
    /// cursor (buyers swept, or refunded, so far).
    struct Chunk {
        bytes32 paidHash;
        uint32 size;
        uint32 cursor;
    }

    mapping(bytes32 => Collection) public collections;

    /// The split batch's functions call out (the stablecoin, the router, the launch's token, which this contract does
    /// not choose): none of them can be re-entered from such a call, so a cursor or a status is never read stale.
    bool private transient splitLocked;

    error Reentered();

    modifier splitLock() {
        if (splitLocked) revert Reentered();
        splitLocked = true;
        _;
        splitLocked = false;
    }
    mapping(bytes32 => mapping(uint256 => Chunk)) public collectedChunks;

    event OperatorSet(address indexed operator, bool allowed);
    event BatchExecuted(
        bytes32 indexed batchId,
        address indexed token,
        uint256 totalIn,
        uint256 tokensOut,
        uint256 lowestLimitFdv,
        uint256 buyersPaid,
        uint256 buyersSkipped,
        bytes32 allocationHash
    );
    event BuyerSkipped(bytes32 indexed batchId, address indexed buyer, uint256 index, uint256 amount);
    event BatchSwept(bytes32 indexed batchId, uint256 from, uint256 to, uint256 feeTotal);
    event ChunkCollected(
        bytes32 indexed batchId, uint256 indexed chunk, uint256 amount, uint256 buyersPaid, uint256 buyersSkipped, bytes32 paidHash
    );
    event CollectSkipped(bytes32 indexed batchId, uint256 indexed chunk, address indexed buyer, uint256 index, uint256 amount);
    event BatchSettled(
        bytes32 indexed batchId,
        address indexed token,
        uint256 totalIn,
        uint256 tokensOut,
        uint256 lowestLimitFdv,
        uint256 chunks,
        uint256 buyersPaid
    );
    event ChunkSwept(bytes32 indexed batchId, uint256 indexed chunk, uint256 from, uint256 to, uint256 feeTotal);
    event BatchCancelled(bytes32 indexed batchId, uint256 collected, uint256 chunks);
    event ChunkRefunded(bytes32 indexed batchId, uint256 indexed chunk, uint256 from, uint256 to, uint256 amount);
    /// A batch (executeBatch, or a split batch's first collect) named batches it re-clears the orders of: they are dead.
    event BatchesSuperseded(bytes32 indexed batchId, bytes32[] superseded);
    event RefundFailed(bytes32 indexed batchId, uint256 indexed chunk, address indexed buyer, uint256 index, uint256 amount);

    error NotAdmin();
    error NotOperator();
    error BatchAlreadyExecuted(bytes32 batchId);
    error FeeTooHigh();
    error ClearingAboveLimit(uint256 totalIn, uint256 tokensOut, uint256 lowestLimitFdv);
    error NotSweepable(bytes32 batchId);
    error WrongAllocation(bytes32 batchId);
    error WrongCursor(uint256 expected, uint256 given);
    error TransferFailed();
    error EmptyChunk();
    error ChunkAlreadyCollected(bytes32 batchId, uint256 chunk);
    error NotCollecting(bytes32 batchId);
    error SettleExpired(bytes32 batchId, uint256 settleBy);
    error WrongStablecoin(address expected, address given);
    error NothingCollected(bytes32 batchId);
    error NotRefundable(bytes32 batchId);
    error BatchExpired(bytes32 batchId, uint256 validUntilBlock);
    error BatchSuperseded(bytes32 batchId);
    error SupersededBatchPulled(bytes32 batchId, bytes32 superseded);

    constructor(PrebuyBuyRouter router_, address admin_, address[] memory operators_) {
        router = router_;
        admin = admin_;
        for (uint256 i = 0; i < operators_.length; i++) {
            operators[operators_[i]] = true;
            emit OperatorSet(operators_[i], true);
        }
    }

    function setOperator(address operator, bool allowed) external {
        if (msg.sender != admin) revert NotAdmin();
        operators[operator] = allowed;
        emit OperatorSet(operator, allowed);
    }

    /// @param batchId    The batch's idempotency key (also the router's order id for the one swap).
    /// @param route      The router's buy parameters for the launch: stablecoin, WETH, v3 pool, bridge, pool key,
    ///                   token, and the batch's fee terms (feeRecipient, feeBps); orderId, amountIn and minTokensOut
    ///                   are set here.
    /// @param entries    One word per buyer: address << 96 | amount.
    /// @param lowestLimitFdv The lowest FDV limit of the included orders, stablecoin atoms (0: none has a limit).
    /// @param pushNow    Credit each buyer at once (a token transfer per buyer) or commit the allocation for a sweep.
    /// @param validUntilBlock The last block this batch may execute in; later it reverts (BatchExpired) and takes nothing.
    /// @param supersedes Earlier batches of the launch whose orders this one may re-clear (released after a price revert
    ///                   while their signed transactions could still land): this batch executes only if none of them
    ///                   has pulled (SupersededBatchPulled), and marks them dead (BatchSuperseded), so at most one pulls.
    function executeBatch(
        bytes32 batchId,
        PrebuyBuyRouter.BuyParams calldata route,
        uint256[] calldata entries,
        uint256 lowestLimitFdv,
        bool pushNow,
        uint256 validUntilBlock,
        bytes32[] calldata supersedes
    ) external returns (uint256 totalIn, uint256 tokensOut) {
        if (block.number > validUntilBlock) revert BatchExpired(batchId, validUntilBlock);
        if (!operators[msg.sender]) revert NotOperator();
        if (route.feeBps > MAX_FEE_BPS) revert FeeTooHigh();
        Batch storage b = batches[batchId];
        if (b.executed) revert BatchAlreadyExecuted(batchId);
        if (b.superseded) revert BatchSuperseded(batchId);
        b.executed = true;
        if (supersedes.length != 0) _supersede(batchId, supersedes);

        address stablecoin = route.stablecoin;
        uint256 n = entries.length;
        uint256[] memory paid = new uint256[](n);
        uint256 minPaid = type(uint256).max;
        uint256 skipped;
        for (uint256 i = 0; i < n; i++) {
            uint256 e = entries[i];
            address buyer = address(uint160(e >> 96));
            uint256 amount = uint96(e);
            if (amount != 0 && _pull(stablecoin, buyer, amount)) {
                paid[i] = e;
                totalIn += amount;
                if (amount < minPaid) minPaid = amount;
            } else {
                paid[i] = e >> 96 << 96;
                skipped++;
                emit BuyerSkipped(batchId, buyer, i, amount);
            }
        }

        if (totalIn > 0) {
            tokensOut = _swap(batchId, route, totalIn);
            if (lowestLimitFdv != 0) {
                uint256 supply = IPrebuyTotalSupply(route.token).totalSupply();
                uint256 bound = tokensOut * lowestLimitFdv;
                uint256 cost = totalIn * supply;
                if (bound < cost || minPaid * (bound - cost) < totalIn * lowestLimitFdv) {
                    revert ClearingAboveLimit(totalIn, tokensOut, lowestLimitFdv);
                }
            }
        }

        b.token = route.token;
        b.feeRecipient = route.feeRecipient;
        b.totalIn = uint96(totalIn);
        b.tokensOut = uint128(tokensOut);
        b.feeBps = uint16(route.feeBps);
        bytes32 allocationHash;
        if (tokensOut > 0) {
            if (pushNow) {
                uint256 netTotal = _credit(route.token, paid, 0, n, totalIn, tokensOut, route.feeBps);
                _send(route.token, route.feeRecipient, tokensOut - netTotal);
                b.swept = uint32(n);
                b.netSwept = uint128(netTotal);
                emit BatchSwept(batchId, 0, n, tokensOut - netTotal);
            } else {
                allocationHash = keccak256(abi.encodePacked(paid));
                b.allocationHash = allocationHash;
            }
        }
        emit BatchExecuted(batchId, route.token, totalIn, tokensOut, lowestLimitFdv, n - skipped, skipped, allocationHash);
    }

    /// @notice Credits buyers [from, to) of a committed allocation (anyone may call: it only pays the committed
    ///         recipients their committed shares). `paid` is the whole list as committed (the batch's entries with a
    ///         skipped buyer's amount zeroed); sweeps go in order, so none is paid twice; the last pays the fee.
    function sweep(bytes32 batchId, uint256[] calldata paid, uint256 from, uint256 to) external {
        Batch storage b = batches[batchId];
        if (b.allocationHash == bytes32(0)) revert NotSweepable(batchId);
        if (keccak256(abi.encodePacked(paid)) != b.allocationHash) revert WrongAllocation(batchId);
        if (from != b.swept) revert WrongCursor(b.swept, from);
        if (to <= from || to > paid.length) revert WrongCursor(paid.length, to);
        uint256 net = _credit(b.token, paid, from, to, b.totalIn, b.tokensOut, b.feeBps);
        uint256 netSwept = b.netSwept + net;
        b.swept = uint32(to);
        b.netSwept = uint128(netSwept);
        uint256 feeTotal;
        if (to == paid.length) {
            feeTotal = b.tokensOut - netSwept;
            _send(b.token, b.feeRecipient, feeTotal);
        }
        emit BatchSwept(batchId, from, to, feeTotal);
    }

    /// @notice Pulls one chunk of a split batch: each buyer's amount from its approved wallet (a failed pull skips the
    ///         buyer, as in executeBatch). Stores only the hash of the chunk's paid words and adds to the batch's
    ///         total; no swap. A chunk id is collected once; collects after settle, cancel or the window take nothing.
    /// @param stablecoin The stablecoin to pull (the batch's first collect fixes it; later ones must name the same).
    /// @param chunk      The chunk's id within the batch (the planner numbers them 0..k-1; any distinct ids work).
    /// @param entries    One word per buyer: address << 96 | amount.
    /// @param validUntilBlock The last block this collect may pull in; later it reverts (BatchExpired) and takes nothing.
    ///        settle has none: it pulls no wallet (it swaps what was collected), and it is bounded by SETTLE_WINDOW_BLOCKS
    ///        and refused after a cancel, which the executor sends before it releases a split batch.
    /// @param supersedes As executeBatch's (every collect of the batch carries the same list): checked and marked by the
    ///        collect that opens the batch, whichever chunk lands first. A batch open (collecting) cannot be dead, and a
    ///        dead one can never open, so the later collects need not look again.
    function collect(
        bytes32 batchId,
        address stablecoin,
        uint256 chunk,
        uint256[] calldata entries,
        uint256 validUntilBlock,
        bytes32[] calldata supersedes
    )
        external
        splitLock
        returns (uint256 amount, uint256 skipped)
    {
        if (block.number > validUntilBlock) revert BatchExpired(batchId, validUntilBlock);
        if (!operators[msg.sender]) revert NotOperator();
        uint256 n = entries.length;
        if (n == 0) revert EmptyChunk();
        Collection storage c = collections[batchId];
        uint8 status = c.status;
        if (status == 0) {
            // executeBatch's ids stay its own: a split batch never shares one.
            Batch storage b = batches[batchId];
            if (b.executed) revert BatchAlreadyExecuted(batchId);
            if (b.superseded) revert BatchSuperseded(batchId);
            if (supersedes.length != 0) _supersede(batchId, supersedes);
            c.stablecoin = stablecoin;
            c.settleBy = uint40(block.number + SETTLE_WINDOW_BLOCKS);
            c.status = COLLECTING;
            c.minPaid = type(uint96).max;
        } else {
            if (status != COLLECTING || block.number > c.settleBy) revert NotCollecting(batchId);
            if (c.stablecoin != stablecoin) revert WrongStablecoin(c.stablecoin, stablecoin);
        }
        Chunk storage k = collectedChunks[batchId][chunk];
        if (k.paidHash != bytes32(0)) revert ChunkAlreadyCollected(batchId, chunk);

        uint256[] memory paid = new uint256[](n);
        uint256 minPaid = c.minPaid;
        for (uint256 i = 0; i < n; i++) {
            uint256 e = entries[i];
            address buyer = address(uint160(e >> 96));
            uint256 pull = uint96(e);
            if (pull != 0 && _pull(stablecoin, buyer, pull)) {
                paid[i] = e;
                amount += pull;
                if (pull < minPaid) minPaid = pull;
            } else {
                paid[i] = e >> 96 << 96;
                skipped++;
                emit CollectSkipped(batchId, chunk, buyer, i, pull);
            }
        }
        bytes32 paidHash = keccak256(abi.encodePacked(paid));
        k.paidHash = paidHash;
        k.size = uint32(n);
        c.collected = uint96(c.collected + amount);
        c.minPaid = uint96(minPaid);
        c.buyers = uint40(c.buyers + n - skipped);
        c.chunks += 1;
        emit ChunkCollected(batchId, chunk, amount, n - skipped, skipped, paidHash);
    }

    /// @notice The one swap of a split batch over everything collected, checked against the lowest included limit as
    ///         executeBatch checks it (with the smallest payment over all chunks); commits the totals the chunks'
    ///         sweeps share. Once per batch, within SETTLE_WINDOW_BLOCKS of the first collect, never after a cancel.
    ///         A revert (ClearingAboveLimit: the pool moved) changes nothing: the operator may settle again in a later
    ///         block within the window, or cancel and refund.
    function settle(bytes32 batchId, PrebuyBuyRouter.BuyParams calldata route, uint256 lowestLimitFdv)
        external
        splitLock
        returns (uint256 tokensOut)
    {
        if (!operators[msg.sender]) revert NotOperator();
        if (route.feeBps > MAX_FEE_BPS) revert FeeTooHigh();
        Collection storage c = collections[batchId];
        if (c.status != COLLECTING) revert NotCollecting(batchId);
        if (block.number > c.settleBy) revert SettleExpired(batchId, c.settleBy);
        if (route.stablecoin != c.stablecoin) revert WrongStablecoin(c.stablecoin, route.stablecoin);
        uint256 totalIn = c.collected;
        if (totalIn == 0) revert NothingCollected(batchId);
        Batch storage b = batches[batchId];
        if (b.executed) revert BatchAlreadyExecuted(batchId);
        b.executed = true;
        c.status = SETTLED;

        tokensOut = _swap(batchId, route, totalIn);
        // No tokens is no price: refused like a clearing above any limit (the buyers are refunded, not credited 0).
        if (tokensOut == 0) revert ClearingAboveLimit(totalIn, 0, lowestLimitFdv);
        if (lowestLimitFdv != 0) {
            uint256 supply = IPrebuyTotalSupply(route.token).totalSupply();
            uint256 bound = tokensOut * lowestLimitFdv;
            uint256 cost = totalIn * supply;
            if (bound < cost || uint256(c.minPaid) * (bound - cost) < totalIn * lowestLimitFdv) {
                revert ClearingAboveLimit(totalIn, tokensOut, lowestLimitFdv);
            }
        }
        b.token = route.token;
        b.feeRecipient = route.feeRecipient;
        b.totalIn = uint96(totalIn);
        b.tokensOut = uint128(tokensOut);
        b.feeBps = uint16(route.feeBps);
        emit BatchSettled(batchId, route.token, totalIn, tokensOut, lowestLimitFdv, c.chunks, c.buyers);
    }

    /// @notice Credits buyers [from, to) of one chunk of a settled split batch (anyone may call). `paid` is the chunk's
    ///         paid words as collected (a skipped buyer's amount zeroed). Each share is over the batch's total, so the
    ///         chunks together are exactly allocateBatch over all paid words; the chunk that finishes last pays the fee
    ///         recipient tokensOut minus every net credited.
    function sweepChunk(bytes32 batchId, uint256 chunk, uint256[] calldata paid, uint256 from, uint256 to)
        external
        splitLock
    {
        Collection storage c = collections[batchId];
        if (c.status != SETTLED) revert NotSweepable(batchId);
        Chunk storage k = _checkedChunk(batchId, chunk, paid, from, to);
        k.cursor = uint32(to);
        Batch storage b = batches[batchId];
        uint256 netSwept = b.netSwept + _credit(b.token, paid, from, to, b.totalIn, b.tokensOut, b.feeBps);
        b.netSwept = uint128(netSwept);
        uint256 feeTotal;
        if (to == paid.length) {
            uint32 done = c.chunksDone + 1;
            c.chunksDone = done;
            if (done == c.chunks) {
                feeTotal = b.tokensOut - netSwept;
                _send(b.token, b.feeRecipient, feeTotal);
            }
        }
        emit ChunkSwept(batchId, chunk, from, to, feeTotal);
    }

    /// @notice Gives up a split batch before it settles (the clearing no longer meets the committed limit, or a
    ///         restarted executor chose not to settle): settle and further collects become impossible, refunds
    ///         possible. Also on an id nothing was collected for yet, so a collect still in flight takes nothing.
    function cancel(bytes32 batchId) external {
        if (!operators[msg.sender]) revert NotOperator();
        Collection storage c = collections[batchId];
        if (c.status == SETTLED || c.status == CANCELLED) revert NotCollecting(batchId);
        if (c.status == 0 && batches[batchId].executed) revert BatchAlreadyExecuted(batchId);
        c.status = CANCELLED;
        emit BatchCancelled(batchId, c.collected, c.chunks);
    }

    /// @notice Returns buyers [from, to) of one chunk exactly what was collected from each, once the batch can never
    ///         settle: cancelled, or still unsettled after SETTLE_WINDOW_BLOCKS (then anyone may call). A refund that
    ///         the stablecoin refuses (a blocklisted wallet) is reported (RefundFailed) and passed over, so it cannot
    ///         hold the others' refunds; its amount stays in this contract.
    function refund(bytes32 batchId, uint256 chunk, uint256[] calldata paid, uint256 from, uint256 to) external splitLock {
        Collection storage c = collections[batchId];
        if (!(c.status == CANCELLED || (c.status == COLLECTING && block.number > c.settleBy))) revert NotRefundable(batchId);
        Chunk storage k = _checkedChunk(batchId, chunk, paid, from, to);
        k.cursor = uint32(to);
        if (to == paid.length) c.chunksDone += 1;
        address stablecoin = c.stablecoin;
        uint256 amount;
        for (uint256 i = from; i < to; i++) {
            uint256 e = paid[i];
            uint256 back = uint96(e);
            if (back == 0) continue;
            address buyer = address(uint160(e >> 96));
            (bool ok, bytes memory ret) = stablecoin.call(abi.encodeCall(IPrebuyERC20.transfer, (buyer, back)));
            if (ok && (ret.length == 0 || abi.decode(ret, (bool)))) amount += back;
            else emit RefundFailed(batchId, chunk, buyer, i, back);
        }
        emit ChunkRefunded(batchId, chunk, from, to, amount);
    }

    /// @notice Whether a batch has pulled or may still pull from its open collection: executed (executeBatch, or a split
    ///         batch settled) or collecting. A cancelled split batch can pull no more (its collections are refunded).
    function pulled(bytes32 batchId) public view returns (bool) {
        return batches[batchId].executed || collections[batchId].status == COLLECTING;
    }

    /// @dev A batch that re-clears earlier batches' orders: refused if any of them pulled (its orders are that batch's,
    ///      the executor settles them from it), else each is marked dead, so none of them can pull after this one. On a
    ///      revert of the caller (a price revert) the marks go with it: the next batch names them again.
    function _supersede(bytes32 batchId, bytes32[] calldata supersedes) private {
        for (uint256 i = 0; i < supersedes.length; i++) {
            bytes32 s = supersedes[i];
            if (pulled(s)) revert SupersededBatchPulled(batchId, s);
            batches[s].superseded = true;
        }
        emit BatchesSuperseded(batchId, supersedes);
    }

    /// @dev The chunk `paid` claims to be, checked against its committed hash, and [from, to) against its cursor (sweeps
    ///      and refunds go in order, so no buyer is paid twice).
    function _checkedChunk(bytes32 batchId, uint256 chunk, uint256[] calldata paid, uint256 from, uint256 to)
        private
        view
        returns (Chunk storage k)
    {
        k = collectedChunks[batchId][chunk];
        if (k.paidHash == bytes32(0) || keccak256(abi.encodePacked(paid)) != k.paidHash) revert WrongAllocation(batchId);
        if (from != k.cursor) revert WrongCursor(k.cursor, from);
        if (to <= from || to > paid.length) revert WrongCursor(paid.length, to);
    }

    /// @dev transferFrom without reverting: false when the token refuses (the buyer no longer has the funds or the
    ///      approval). Tokens that return nothing count as success when the call did not revert.
    function _pull(address stablecoin, address buyer, uint256 amount) private returns (bool) {
        (bool ok, bytes memory ret) =
            stablecoin.call(abi.encodeCall(IPrebuyERC20.transferFrom, (buyer, address(this), amount)));
        return ok && (ret.length == 0 || abi.decode(ret, (bool)));
    }

    /// @dev One swap for the whole batch through PrebuyBuyRouter: the batch is the router's caller, so the router pulls
    ///      the batch's stablecoin and returns every token to it; the router's fee is 0 (the batch splits the fee
    ///      itself) and its minimum out 0: the batch's own check after the swap is stricter (per buyer after rounding).
    function _swap(bytes32 batchId, PrebuyBuyRouter.BuyParams calldata route, uint256 totalIn)
        private
        returns (uint256 received)
    {
        PrebuyBuyRouter.BuyParams memory p = route;
        p.orderId = batchId;
        p.amountIn = totalIn;
        p.minTokensOut = 0;
        p.feeRecipient = address(this);
        p.feeBps = 0;
        IPrebuyERC20 coin = IPrebuyERC20(route.stablecoin);
        (bool ok,) = address(coin).call(abi.encodeWithSignature("approve(address,uint256)", address(router), totalIn));
        if (!ok) revert TransferFailed();
        (received,) = router.buy(p);
    }

    function _credit(
        address token,
        uint256[] memory paid,
        uint256 from,
        uint256 to,
        uint256 totalIn,
        uint256 tokensOut,
        uint256 feeBps
    ) private returns (uint256 netTotal) {
        for (uint256 i = from; i < to; i++) {
            uint256 e = paid[i];
            uint256 amount = uint96(e);
            if (amount == 0) continue;
            uint256 gross = tokensOut * amount / totalIn;
            uint256 net = gross - gross * feeBps / BPS;
            netTotal += net;
            if (net > 0) _send(token, address(uint160(e >> 96)), net);
        }
    }

    function _send(address token, address to, uint256 amount) private {
        if (amount == 0) return;
        if (!IPrebuyERC20(token).transfer(to, amount)) revert TransferFailed();
    }

    /// The router refunds native ETH left over on ETH-paired routes (none for exact-input swaps); accepted, not kept
    /// track of.
    receive() external payable {}
}
