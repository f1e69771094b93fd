// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {IClankerMevModule} from "./ClankerModuleInterfaces.sol";

interface IDevnetWethV0 {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @notice Devnet stand-in for Clanker v4.0's ClankerSniperAuctionV0 (clanker-devco/v4-contracts
/// src/mev-modules/ClankerSniperAuctionV0.sol and interfaces/IClankerSniperAuctionV0.sol at
/// b004c2edda29fa282a16d5d1441a26484f70b37f, specs/SniperAuctionV0Explainer.md; on Base at
/// 0xFdc013ce003980889cFfd66b0c8329545ae1d1E8, README "v4.0"). Kept point by point:
/// - the public getters gasPeg(poolId), nextAuctionBlock(poolId), round(poolId), blocksBetweenDeploymentAndFirstAuction,
///   blocksBetweenAuction, maxRounds (2 / 2 / 5 as the real constructor sets them), paymentPerGasUnit, FACTORY_PORTION,
///   BPS, weth; the events and errors of IClankerSniperAuctionV0 with their real signatures;
/// - `initialize` (hook only): refuses a second initialisation (PoolAlreadyInitialized), gasPeg = basefee * 1.125^2,
///   nextAuctionBlock = block + 2, round 1, AuctionInitialized;
/// - `beforeSwap` (hook only): block < nextAuctionBlock -> revert NotAuctionBlock(); block > nextAuctionBlock ->
///   AuctionExpired and return true (the hook disables the module: every later swap is plain); block ==
///   nextAuctionBlock -> an auction: the module data is abi.decode'd as the payee (a plain swap's empty data makes the
///   decode revert without a reason), which pays (tx.gasprice - gasPeg) * paymentPerGasUnit WETH (GasSignalNegative when
///   the gas price is under the peg), AuctionWon; then the round is bumped: past maxRounds AuctionEnded and return true,
///   else the next auction `blocksBetweenAuction` blocks on with a new peg, AuctionReset, return false.
/// - No fee of its own: the swap pays the pool's LP fee (and the hook's protocol fee) only; a bid's cost is its WETH
///   payment, a flat amount set by its gas price, not a fraction of the swap.
/// Simplified: the payment stays in this contract (the real `_sendPayment` splits it 20% to the factory, 80% to the LP
/// locker's reward recipients through the fee locker); there is no owner, so the round settings never change
/// (the real owner's setters emit the Set* events with notice). `paymentPerGasUnit` is a constructor argument (Base:
/// 0.0001 ether) so devnet bids cost little.
contract DevnetClankerSniperAuctionV0 {
    mapping(PoolId => uint256) public gasPeg;
    mapping(PoolId => uint256) public nextAuctionBlock;
    mapping(PoolId => uint256) public round;

    uint256 public blocksBetweenDeploymentAndFirstAuction = 2;
    uint256 public blocksBetweenAuction = 2;
    uint256 public maxRounds = 5;
    uint256 public paymentPerGasUnit;

    uint256 public constant FACTORY_PORTION = 2000;
    uint256 public constant BPS = 10_000;

    address public immutable weth;

    event AuctionInitialized(PoolId indexed poolId, uint256 gasPeg, uint256 indexed auctionBlock, uint256 round);
    event AuctionWon(PoolId indexed poolId, address indexed payee, uint256 paymentAmount, uint256 round);
    event AuctionReset(PoolId indexed poolId, uint256 gasPeg, uint256 indexed auctionBlock, uint256 round);
    event AuctionExpired(PoolId indexed poolId, uint256 round);
    event AuctionEnded(PoolId indexed poolId);

    error PoolAlreadyInitialized();
    error GasSignalNegative();
    error NotAuctionBlock();
    error OnlyHook();
    error PaymentFailed();

    constructor(address weth_, uint256 paymentPerGasUnit_) {
        weth = weth_;
        paymentPerGasUnit = paymentPerGasUnit_;
    }

    modifier onlyHook(PoolKey calldata poolKey) {
        if (msg.sender != address(poolKey.hooks)) revert OnlyHook();
        _;
    }

    function initialize(PoolKey calldata poolKey, bytes calldata) external onlyHook(poolKey) {
        PoolId poolId = poolKey.toId();
        if (gasPeg[poolId] != 0) revert PoolAlreadyInitialized();
        gasPeg[poolId] = _getBaseAuctionGasPeg(blocksBetweenDeploymentAndFirstAuction);
        nextAuctionBlock[poolId] = block.number + blocksBetweenDeploymentAndFirstAuction;
        round[poolId] = 1;
        emit AuctionInitialized(poolId, gasPeg[poolId], nextAuctionBlock[poolId], round[poolId]);
    }

    function beforeSwap(PoolKey calldata poolKey, SwapParams calldata, bool, bytes calldata auctionData)
        external
        onlyHook(poolKey)
        returns (bool disableMevModule)
    {
        PoolId poolId = poolKey.toId();
        if (block.number < nextAuctionBlock[poolId]) {
            revert NotAuctionBlock();
        } else if (block.number > nextAuctionBlock[poolId]) {
            emit AuctionExpired(poolId, round[poolId]);
            return true;
        }
        _pullPayment(poolId, auctionData);
        return _prepareNextRound(poolId);
    }

    /// @dev As the real one: basefee grown by the EIP-1559 maximum of 12.5% per block until the auction block.
    function _getBaseAuctionGasPeg(uint256 blocks) internal view returns (uint256) {
        return (block.basefee * (1125 ** blocks)) / (1000 ** blocks);
    }

    function _pullPayment(PoolId poolId, bytes calldata auctionData) internal returns (uint256 paymentAmount) {
        address payee = abi.decode(auctionData, (address));
        int256 gasSignal = int256(tx.gasprice) - int256(gasPeg[poolId]);
        if (gasSignal < 0) revert GasSignalNegative();
        paymentAmount = uint256(gasSignal) * paymentPerGasUnit;
        if (paymentAmount > 0 && !IDevnetWethV0(weth).transferFrom(payee, address(this), paymentAmount)) revert PaymentFailed();
        emit AuctionWon(poolId, payee, paymentAmount, round[poolId]);
    }

    function _prepareNextRound(PoolId poolId) internal returns (bool) {
        round[poolId] = round[poolId] + 1;
        if (round[poolId] > maxRounds) {
            emit AuctionEnded(poolId);
            return true;
        }
        gasPeg[poolId] = _getBaseAuctionGasPeg(blocksBetweenAuction);
        nextAuctionBlock[poolId] = block.number + blocksBetweenAuction;
        emit AuctionReset(poolId, gasPeg[poolId], nextAuctionBlock[poolId], round[poolId]);
        return false;
    }

    /// @notice The real factory's setMevModule accepts a module only if it reports the IClankerMevModule interface.
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IClankerMevModule).interfaceId;
    }
}
