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
///      `contribute(offerId, spend)`, so every allowance is spent in the operation that gives it. A UserOperation that
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

    mapping(bytes32 offerId => Offer) public offers;

    /// @dev The offer collecting contributions (only during `settle`), what each wallet paid in, and the total.
    bytes32 private collecting;
    mapping(address wallet => uint256) private contributed;
    uint256 private collected;

    event OfferDeposited(
        bytes32 indexed offerId,
        address indexed project,
        address indexed token,
        uint256 offered,
        uint256 fdv,
        uint256 totalSupply,
        uint64 settleAfter,
        uint64 lockSeconds,
        uint64 vestingSeconds
    );
    event OfferCancelled(bytes32 indexed offerId, uint256 returned);
    event Contributed(bytes32 indexed offerId, address indexed wallet, uint256 amount);
    event BuyerFilled(bytes32 indexed offerId, address indexed wallet, uint256 spend, uint256 tokens, uint256 fee);
    event OfferSettled(bytes32 indexed offerId, uint256 sold, uint256 unsold, uint256 proceeds, uint256 fee);

    error OnlyOperator();
    error OnlyProject();
    error OfferExists(bytes32 offerId);
    error UnknownOffer(bytes32 offerId);
    error OfferClosed(bytes32 offerId);
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

    /// @notice The project deposits `amount` tokens for sale at `fdv` (stablecoin atoms) over `totalSupply`. The tokens
    ///         counted are what arrived (a token that takes a fee on transfer is credited net). Buyers' tokens are
    ///         locked for `lockSeconds` after the settlement block, then vest over `vestingSeconds` (both 0: no lock).
    function deposit(
        bytes32 offerId,
        IOtcERC20 token,
        uint256 amount,
        uint256 fdv,
        uint256 totalSupply,
        uint64 settleAfter,
        uint64 lockSeconds,
        uint64 vestingSeconds
    ) external {
        if (collecting != bytes32(0)) revert Busy();
        if (offers[offerId].project != address(0)) revert OfferExists(offerId);
        if (amount == 0 || fdv == 0 || totalSupply == 0 || address(token) == address(0)) revert InvalidTerms();
        uint256 before = token.balanceOf(address(this));
        _pull(token, msg.sender, amount);
        uint256 received = token.balanceOf(address(this)) - before;
        offers[offerId] = Offer(msg.sender, address(token), received, fdv, totalSupply, settleAfter, lockSeconds, vestingSeconds, false);
        emit OfferDeposited(offerId, msg.sender, address(token), received, fdv, totalSupply, settleAfter, lockSeconds, vestingSeconds);
    }

    /// @notice The project takes its tokens back before the offer settles.
    function cancel(bytes32 offerId) external {
        if (collecting != bytes32(0)) revert Busy();
        Offer storage offer = _open(offerId);
        if (msg.sender != offer.project) revert OnlyProject();
        offer.closed = true;
        _send(IOtcERC20(offer.token), offer.project, offer.offered);
        emit OfferCancelled(offerId, offer.offered);
    }

    /// @notice Called by a buyer's wallet from its UserOperation inside `settle`: pays in `amount` of stablecoin.
    function contribute(bytes32 offerId, uint256 amount) external {
        if (collecting == bytes32(0) || collecting != offerId) revert NotCollecting();
        _pull(stablecoin, msg.sender, amount);
        contributed[msg.sender] += amount;
        collected += amount;
        emit Contributed(offerId, msg.sender, amount);
    }

    /// @notice Runs the buyers' UserOperations, checks every contribution against the plan, then pays the project,
    ///         the buyers and the fee, and returns the unsold tokens; reverts as a whole on any difference.
    function settle(bytes32 offerId, PackedUserOperation[] calldata ops, Fill[] calldata fills) external {
        if (msg.sender != operator) revert OnlyOperator();
        if (collecting != bytes32(0)) revert Busy();
        Offer storage offer = _open(offerId);
        if (block.timestamp < offer.settleAfter) revert TooEarly(offer.settleAfter);
        offer.closed = true;

        collecting = offerId;
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
            emit BuyerFilled(offerId, fill.wallet, fill.spend, fill.tokens, fillFee);
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
        emit OfferSettled(offerId, sold, offer.offered - sold, proceeds, fee);
    }

    /// @notice What `tokens` cost at the offer's price, rounded up: ceil(tokens * fdv / totalSupply).
    function costOf(bytes32 offerId, uint256 tokens) external view returns (uint256) {
        Offer storage offer = offers[offerId];
        if (offer.project == address(0)) revert UnknownOffer(offerId);
        return _costOf(tokens, offer.fdv, offer.totalSupply);
    }

    function _costOf(uint256 tokens, uint256 fdv, uint256 totalSupply) private pure returns (uint256) {
        return (tokens * fdv + totalSupply - 1) / totalSupply;
    }

    function _open(bytes32 offerId) private view returns (Offer storage offer) {
        offer = offers[offerId];
        if (offer.project == address(0)) revert UnknownOffer(offerId);
        if (offer.closed) revert OfferClosed(offerId);
    }

    function _pull(IOtcERC20 token, address from, uint256 amount) private {
        if (!token.transferFrom(from, address(this), amount)) revert TransferFailed();
    }

    function _send(IOtcERC20 token, address to, uint256 amount) private {
        if (!token.transfer(to, amount)) revert TransferFailed();
    }
}
