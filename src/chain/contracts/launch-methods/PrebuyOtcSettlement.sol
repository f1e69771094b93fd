// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";

interface IOtcERC20 {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function balanceOf(address owner) external view returns (uint256);
    function approve(address spender, uint256 amount) external returns (bool);
}

/// @dev PrebuyVesting (same directory): positions in each buyer's name, released only by the buyer.
interface IOtcVesting {
    function lock(address token, address[] calldata beneficiaries, uint256[] calldata amounts, uint64 lockupEnd, uint64 vestingSeconds)
        external
        returns (uint256 firstId);
}

interface IOtcEntryPoint {
    function handleOps(PackedUserOperation[] calldata ops, address payable beneficiary) external;
}

/// @title PrebuyOtcSettlement
/// @notice A pooled OTC buy: a project deposits a fixed token amount at a fixed price (an FDV), and one transaction
///         settles it for every buyer. Stablecoin moves to the project and tokens (less the 3% platform fee) to the
///         buyers' smart wallets, or nothing moves at all.
/// @dev How N smart wallets pay atomically with no standing approval: `settle` itself calls the EntryPoint's
///      `handleOps` with one UserOperation per buyer wallet, each an `executeBatch` of `approve(this, spend)` and
///      `contribute(key, spend)`, so every allowance is spent in the operation that gives it. A UserOperation that
///      fails inside handleOps does not revert the others, so `settle` checks afterwards that every planned
///      contribution arrived, exactly, and that nothing else did; any shortfall (a buyer withdrew since the plan, an
///      operation reverted) reverts the whole transaction, contributions included. EntryPoint v0.7's handleOps takes any
///      caller (eth-infinitism account-abstraction v0.7 `core/EntryPoint.sol`: no origin check), and this works the same
///      for SimpleAccount and Kernel wallets (no ERC-1271 needed, unlike a signature-based pull).
///      `contribute` only accepts money while a settlement is collecting, so nothing can be parked here between calls.
///      Idempotent: an offer settles once; a second `settle` reverts, so a resubmission after a crash moves nothing.
///      Lock and vesting: the terms are fixed at deposit, relative to the settlement block's time; when an offer has
///      any, each buyer's net tokens go into a PrebuyVesting position in its wallet's name in the same transaction (one
///      `lock` for all buyers, positions in fill order: the vesting contract's PositionCreated logs name each one).
///
///      v3 (issue 19, offer squatting): an offer is stored under `offerKey(depositor, offerId)`, never under the bare
///      id. The service's ids (`prebuy-otc:<slug>[:<round>]`) are public and predictable and `deposit` takes any caller,
///      so in v2 a stranger could deposit a worthless token under a project's id first, become that offer's `project`,
///      and be paid the buyers' stablecoin at settlement. Keyed by the depositing address, a stranger's deposit lands
///      under the stranger's own key: the project's key can only ever hold a deposit made by the project's own wallet.
///      This was chosen over an operator-only (or operator-signed) deposit because it needs no trust in, and no extra
///      transaction or signature from, the operator key, and no id has to be kept secret. `settle` also takes the
///      terms the service recorded and reverts unless the offer equals them field by field, and a deposit must credit
///      exactly the amount asked (no fee-on-transfer shortfall): what the service recorded is what settles, or nothing.
///      One call at a time: `deposit`, `cancel` and `settle` share a reentrancy guard (a token's transfer hook cannot
///      re-enter them); `contribute` runs only inside `settle`, for the offer being settled.
///      Who may call what: docs/launch-methods.md, "Who can call what: PrebuyOtcSettlement".
contract PrebuyOtcSettlement {
    struct Offer {
        address project;
        address token;
        /// @notice Tokens deposited for sale.
        uint256 offered;
        /// @notice The OTC price as an FDV in stablecoin atoms: one token atom costs fdv / totalSupply.
        uint256 fdv;
        uint256 totalSupply;
        /// @notice Unix seconds before which the offer cannot settle.
        uint64 settleAfter;
        /// @notice Cliff after the settlement block's time (0 with vestingSeconds 0: no lock, tokens to the wallets).
        uint64 lockSeconds;
        /// @notice Linear vesting after the cliff.
        uint64 vestingSeconds;
        /// @notice Settled or cancelled: closed for good.
        bool closed;
    }

    /// @notice The terms the service recorded for an offer: `settle` reverts unless the stored offer equals them.
    struct Terms {
        address project;
        address token;
        uint256 offered;
        uint256 fdv;
        uint256 totalSupply;
        uint64 settleAfter;
        uint64 lockSeconds;
        uint64 vestingSeconds;
    }

    /// @notice One buyer's part, as the service planned it (src/domain/launch-methods/otc-fill.ts).
    struct Fill {
        address wallet;
        /// @notice Stablecoin the wallet pays: exactly ceil(tokens * fdv / totalSupply).
        uint256 spend;
        /// @notice Tokens bought, before the platform fee.
        uint256 tokens;
    }

    uint256 public constant FEE_BPS = 300;

    IOtcEntryPoint public immutable entryPoint;
    IOtcERC20 public immutable stablecoin;
    /// @notice The service: the only caller of `settle`.
    address public immutable operator;
    address public immutable feeRecipient;
    IOtcVesting public immutable vesting;

    /// @notice Offers by key: `offerKey(project, offerId)` (the depositing address and the id it chose).
    mapping(bytes32 key => Offer) public offers;

    /// @dev The offer (key) collecting contributions (only during `settle`), what each wallet paid in, and the total.
    bytes32 private collecting;
    /// @dev Reentrancy guard of `deposit`, `cancel` and `settle`.
    bool private entered;
    mapping(address wallet => uint256) private contributed;
    uint256 private collected;

    event OfferDeposited(
        bytes32 indexed key,
        address indexed project,
        address indexed token,
        uint256 offered,
        uint256 fdv,
        uint256 totalSupply,
        uint64 settleAfter,
        uint64 lockSeconds,
        uint64 vestingSeconds,
        bytes32 offerId
    );
    event OfferCancelled(bytes32 indexed key, uint256 returned);
    event Contributed(bytes32 indexed key, address indexed wallet, uint256 amount);
    event BuyerFilled(bytes32 indexed key, address indexed wallet, uint256 spend, uint256 tokens, uint256 fee);
    event OfferSettled(bytes32 indexed key, uint256 sold, uint256 unsold, uint256 proceeds, uint256 fee);

    error OnlyOperator();
    error OfferExists(bytes32 key);
    error UnknownOffer(bytes32 key);
    error OfferClosed(bytes32 key);
    error TermsMismatch(bytes32 key);
    error ShortDeposit(uint256 amount, uint256 received);
    error Reentered();
    error TooEarly(uint64 settleAfter);
    error InvalidTerms();
    error NotCollecting();
    error Busy();
    error ContributionMismatch(address wallet, uint256 expected, uint256 received);
    error PriceMismatch(address wallet, uint256 spend, uint256 tokens);
    error Oversold(uint256 sold, uint256 offered);
    error UnplannedContributions(uint256 collected, uint256 planned);
    error TransferFailed();

    constructor(IOtcEntryPoint entryPoint_, IOtcERC20 stablecoin_, address operator_, address feeRecipient_, IOtcVesting vesting_) {
        entryPoint = entryPoint_;
        stablecoin = stablecoin_;
        operator = operator_;
        feeRecipient = feeRecipient_;
        vesting = vesting_;
    }

    /// @notice The key an offer of `project` (the address that deposited it) with the id `offerId` is stored under.
    function offerKey(address project, bytes32 offerId) public pure returns (bytes32) {
        return keccak256(abi.encode(project, offerId));
    }

    /// @notice The caller deposits `amount` tokens for sale at `fdv` (stablecoin atoms) over `totalSupply`, as an offer
    ///         of its own: stored under `offerKey(msg.sender, offerId)`, so nobody else can occupy the caller's key.
    ///         Exactly `amount` must arrive (a token that takes a fee on transfer is refused). Buyers' tokens are locked
    ///         for `lockSeconds` after the settlement block, then vest over `vestingSeconds` (both 0: no lock).
    function deposit(
        bytes32 offerId,
        IOtcERC20 token,
        uint256 amount,
        uint256 fdv,
        uint256 totalSupply,
        uint64 settleAfter,
        uint64 lockSeconds,
        uint64 vestingSeconds
    ) external guarded returns (bytes32 key) {
        if (collecting != bytes32(0)) revert Busy();
        key = offerKey(msg.sender, offerId);
        if (offers[key].project != address(0)) revert OfferExists(key);
        if (amount == 0 || fdv == 0 || totalSupply == 0 || address(token) == address(0)) revert InvalidTerms();
        uint256 before = token.balanceOf(address(this));
        _pull(token, msg.sender, amount);
        uint256 received = token.balanceOf(address(this)) - before;
        if (received != amount) revert ShortDeposit(amount, received);
        offers[key] = Offer(msg.sender, address(token), amount, fdv, totalSupply, settleAfter, lockSeconds, vestingSeconds, false);
        emit OfferDeposited(key, msg.sender, address(token), amount, fdv, totalSupply, settleAfter, lockSeconds, vestingSeconds, offerId);
    }

    /// @notice The caller takes back the tokens of its own offer `offerId` before it settles (only its own: the key is
    ///         derived from the caller).
    function cancel(bytes32 offerId) external guarded {
        if (collecting != bytes32(0)) revert Busy();
        bytes32 key = offerKey(msg.sender, offerId);
        Offer storage offer = _open(key);
        offer.closed = true;
        _send(IOtcERC20(offer.token), offer.project, offer.offered);
        emit OfferCancelled(key, offer.offered);
    }

    /// @notice Called by a buyer's wallet from its UserOperation inside `settle`: pays in `amount` of stablecoin to the
    ///         offer `key` being settled.
    function contribute(bytes32 key, uint256 amount) external {
        if (collecting == bytes32(0) || collecting != key) revert NotCollecting();
        _pull(stablecoin, msg.sender, amount);
        contributed[msg.sender] += amount;
        collected += amount;
        emit Contributed(key, msg.sender, amount);
    }

    /// @notice Settles the offer `offerKey(expected.project, offerId)` at the terms the service recorded (`expected`:
    ///         reverts with TermsMismatch on any difference from the stored offer): runs the buyers' UserOperations,
    ///         checks every contribution against the plan, then pays the project, the buyers and the fee, and returns the
    ///         unsold tokens; reverts as a whole on any difference.
    function settle(bytes32 offerId, Terms calldata expected, PackedUserOperation[] calldata ops, Fill[] calldata fills) external guarded {
        if (msg.sender != operator) revert OnlyOperator();
        if (collecting != bytes32(0)) revert Busy();
        bytes32 key = offerKey(expected.project, offerId);
        Offer storage offer = _open(key);
        if (!_sameTerms(offer, expected)) revert TermsMismatch(key);
        if (block.timestamp < offer.settleAfter) revert TooEarly(offer.settleAfter);
        offer.closed = true;

        collecting = key;
        entryPoint.handleOps(ops, payable(msg.sender));
        collecting = bytes32(0);

        IOtcERC20 token = IOtcERC20(offer.token);
        bool locked = offer.lockSeconds > 0 || offer.vestingSeconds > 0;
        address[] memory lockedFor = new address[](locked ? fills.length : 0);
        uint256[] memory lockedAmounts = new uint256[](locked ? fills.length : 0);
        uint256 sold;
        uint256 proceeds;
        uint256 fee;
        for (uint256 i = 0; i < fills.length; i++) {
            Fill calldata fill = fills[i];
            uint256 received = contributed[fill.wallet];
            // Zeroed as it is checked: a wallet listed twice finds nothing the second time.
            contributed[fill.wallet] = 0;
            if (received != fill.spend) revert ContributionMismatch(fill.wallet, fill.spend, received);
            if (fill.spend != _costOf(fill.tokens, offer.fdv, offer.totalSupply)) revert PriceMismatch(fill.wallet, fill.spend, fill.tokens);
            uint256 fillFee = fill.tokens * FEE_BPS / 10_000;
            sold += fill.tokens;
            proceeds += fill.spend;
            fee += fillFee;
            if (locked) {
                lockedFor[i] = fill.wallet;
                lockedAmounts[i] = fill.tokens - fillFee;
            } else {
                _send(token, fill.wallet, fill.tokens - fillFee);
            }
            emit BuyerFilled(key, fill.wallet, fill.spend, fill.tokens, fillFee);
        }
        if (sold > offer.offered) revert Oversold(sold, offer.offered);
        if (collected != proceeds) revert UnplannedContributions(collected, proceeds);
        collected = 0;

        // One lock for every buyer, at the settlement block's time: positions in fill order, in each wallet's name.
        if (locked && fills.length > 0) {
            if (!token.approve(address(vesting), sold - fee)) revert TransferFailed();
            vesting.lock(
                address(token), lockedFor, lockedAmounts, uint64(block.timestamp) + offer.lockSeconds, offer.vestingSeconds
            );
        }
        if (fee > 0) _send(token, feeRecipient, fee);
        if (offer.offered > sold) _send(token, offer.project, offer.offered - sold);
        if (proceeds > 0) _send(stablecoin, offer.project, proceeds);
        emit OfferSettled(key, sold, offer.offered - sold, proceeds, fee);
    }

    /// @notice What `tokens` cost at the price of the offer `key`, rounded up: ceil(tokens * fdv / totalSupply).
    function costOf(bytes32 key, uint256 tokens) external view returns (uint256) {
        Offer storage offer = offers[key];
        if (offer.project == address(0)) revert UnknownOffer(key);
        return _costOf(tokens, offer.fdv, offer.totalSupply);
    }

    function _costOf(uint256 tokens, uint256 fdv, uint256 totalSupply) private pure returns (uint256) {
        return (tokens * fdv + totalSupply - 1) / totalSupply;
    }

    function _open(bytes32 key) private view returns (Offer storage offer) {
        offer = offers[key];
        if (offer.project == address(0)) revert UnknownOffer(key);
        if (offer.closed) revert OfferClosed(key);
    }

    function _sameTerms(Offer storage offer, Terms calldata expected) private view returns (bool) {
        return offer.project == expected.project && offer.token == expected.token && offer.offered == expected.offered
            && offer.fdv == expected.fdv && offer.totalSupply == expected.totalSupply && offer.settleAfter == expected.settleAfter
            && offer.lockSeconds == expected.lockSeconds && offer.vestingSeconds == expected.vestingSeconds;
    }

    modifier guarded() {
        if (entered) revert Reentered();
        entered = true;
        _;
        entered = false;
    }

    function _pull(IOtcERC20 token, address from, uint256 amount) private {
        if (!token.transferFrom(from, address(this), amount)) revert TransferFailed();
    }

    function _send(IOtcERC20 token, address to, uint256 amount) private {
        if (!token.transfer(to, amount)) revert TransferFailed();
    }
}
