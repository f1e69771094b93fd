// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {IClankerMevModule} from "./ClankerModuleInterfaces.sol";

interface IDevnetClankerHookFee {
    function mevModuleSetFee(PoolKey calldata poolKey, uint24 fee) external;
    function MAX_MEV_LP_FEE() external view returns (uint24);
    function MAX_MEV_MODULE_DELAY() external view returns (uint256);
}

interface IDevnetWeth {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @notice Devnet stand-in for Clanker v4.1's MEV module on Base, ClankerSniperAuctionV2
/// (clanker-devco/v4-contracts, src/mev-modules/ClankerSniperAuctionV2.sol and interfaces/IClankerSniperAuctionV0.sol).
/// Observable behaviour kept: the public getters and their layouts (gasPeg, nextAuctionBlock, round, feeConfig,
/// poolDecayStartTime, maxRounds, blocksBetweenAuction, blocksBetweenDeploymentAndFirstAuction, paymentPerGasUnit,
/// getFee), the events and errors, and the gating of `beforeSwap`:
/// - block < nextAuctionBlock: revert NotAuctionBlock;
/// - block == nextAuctionBlock: an auction: the swap's module data must name a payee (a plain swap, with empty data,
///   reverts), who pays (tx.gasprice - gasPeg) * paymentPerGasUnit in WETH; the swap pays startingFee and the next
///   round is set `blocksBetweenAuction` later, until `maxRounds` rounds were won, when the decay starts;
/// - block > nextAuctionBlock with no decay started: the round expired unbid; the decay starts from the last won
///   round's timestamp (or the launch's);
/// - during the decay the fee is endingFee + range * ((D - e) / D)^2 with the same 1e18 fixed-point steps, and the module
///   asks the hook to switch it off once e > D.
/// Simplified: the payment stays in this contract (the real module splits it between the factory and the LP locker's
/// reward recipients); there is no owner to change the round settings.
contract DevnetClankerSniperAuction {
    struct FeeConfig {
        uint24 startingFee;
        uint24 endingFee;
        uint256 secondsToDecay;
    }

    mapping(PoolId => uint256) public gasPeg;
    mapping(PoolId => uint256) public nextAuctionBlock;
    mapping(PoolId => uint256) public round;
    mapping(PoolId => FeeConfig) public feeConfig;
    mapping(PoolId => uint256) public poolDecayStartTime;
    mapping(PoolId => uint256) internal auctionTimestamp;

    uint256 public constant blocksBetweenDeploymentAndFirstAuction = 2;
    uint256 public constant blocksBetweenAuction = 2;
    uint256 public constant maxRounds = 5;
    uint256 public immutable paymentPerGasUnit;
    address public immutable weth;

    event AuctionInitialized(PoolId indexed poolId, uint256 gasPeg, uint256 indexed blockNumber, uint256 round);
    event AuctionWon(PoolId indexed poolId, address indexed payee, uint256 paymentAmount, uint256 round);
    event AuctionReset(PoolId indexed poolId, uint256 round);
    event AuctionExpired(PoolId indexed poolId, uint256 round);
    event AuctionEnded(PoolId indexed poolId);
    event FeeConfigSet(PoolId indexed poolId, uint24 startingFee, uint24 endingFee, uint256 secondsToDecay);
    event DecayPeriodOver(PoolId indexed poolId);

    error OnlyHook();
    error PoolAlreadyInitialized();
    error GasSignalNegative();
    error NotAuctionBlock();
    error TimeDecayMustBeGreaterThanZero();
    error StartingFeeMustBeGreaterThanZero();
    error StartingFeeMustBeGreaterThanEndingFee();
    error StartingFeeGreaterThanMaxLpFee();
    error TimeDecayLongerThanMaxMevDelay();
    error PaymentFailed();

    constructor(address weth_, uint256 paymentPerGasUnit_) {
        weth = weth_;
        paymentPerGasUnit = paymentPerGasUnit_;
    }

    /// @notice The real factory's setMevModule accepts a module only if it reports the IClankerMevModule interface.
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IClankerMevModule).interfaceId;
    }

    modifier onlyHook(PoolKey calldata poolKey) {
        if (msg.sender != address(poolKey.hooks)) revert OnlyHook();
        _;
    }

    /// @notice The fee of the next swap, 0 once the decay is over (as the real getter).
    function getFee(PoolId poolId) external view returns (uint24) {
        if (gasPeg[poolId] == 0) return 0;
        if (poolDecayStartTime[poolId] == 0) return feeConfig[poolId].startingFee;
        if (block.timestamp > poolDecayStartTime[poolId] + feeConfig[poolId].secondsToDecay) return 0;
        return _calculateFee(poolId);
    }

    function initialize(PoolKey calldata poolKey, bytes calldata descendingFeeConfig) external onlyHook(poolKey) {
        PoolId poolId = poolKey.toId();
        if (gasPeg[poolId] != 0) revert PoolAlreadyInitialized();
        gasPeg[poolId] = _gasPeg(blocksBetweenDeploymentAndFirstAuction);
        nextAuctionBlock[poolId] = block.number + blocksBetweenDeploymentAndFirstAuction;
        round[poolId] = 1;
        emit AuctionInitialized(poolId, gasPeg[poolId], nextAuctionBlock[poolId], 1);
        // mevModuleData is the real IClankerMevDescendingFees.FeeConfig, checked as the real _validateFeeConfig (less its
        // hook-interface check: the devnet hook is the only one).
        FeeConfig memory config = abi.decode(descendingFeeConfig, (FeeConfig));
        if (config.secondsToDecay == 0) revert TimeDecayMustBeGreaterThanZero();
        if (config.startingFee == 0) revert StartingFeeMustBeGreaterThanZero();
        if (config.startingFee < config.endingFee) revert StartingFeeMustBeGreaterThanEndingFee();
        IDevnetClankerHookFee hook = IDevnetClankerHookFee(address(poolKey.hooks));
        if (config.startingFee > hook.MAX_MEV_LP_FEE()) revert StartingFeeGreaterThanMaxLpFee();
        if (config.secondsToDecay > hook.MAX_MEV_MODULE_DELAY()) revert TimeDecayLongerThanMaxMevDelay();
        feeConfig[poolId] = config;
        emit FeeConfigSet(poolId, config.startingFee, config.endingFee, config.secondsToDecay);
        auctionTimestamp[poolId] = block.timestamp;
    }

    function beforeSwap(PoolKey calldata poolKey, SwapParams calldata, bool, bytes calldata auctionData)
        external
        onlyHook(poolKey)
        returns (bool disableMevModule)
    {
        PoolId poolId = poolKey.toId();
        if (poolDecayStartTime[poolId] != 0) return _handleFeeDecay(poolKey);
        if (block.number < nextAuctionBlock[poolId]) revert NotAuctionBlock();
        if (block.number > nextAuctionBlock[poolId]) {
            emit AuctionExpired(poolId, round[poolId]);
            // As on Base: the decay counts from the last targeted auction's timestamp.
            poolDecayStartTime[poolId] = auctionTimestamp[poolId];
            return _handleFeeDecay(poolKey);
        }
        // The auction block: the swap must carry the payee (abi.decode of empty data reverts, as on Base).
        address payee = abi.decode(auctionData, (address));
        int256 gasSignal = int256(tx.gasprice) - int256(gasPeg[poolId]);
        if (gasSignal < 0) revert GasSignalNegative();
        uint256 payment = uint256(gasSignal) * paymentPerGasUnit;
        if (payment > 0 && !IDevnetWeth(weth).transferFrom(payee, address(this), payment)) revert PaymentFailed();
        emit AuctionWon(poolId, payee, payment, round[poolId]);
        IDevnetClankerHookFee(msg.sender).mevModuleSetFee(poolKey, feeConfig[poolId].startingFee);
        _prepareNextRound(poolId);
        return false;
    }

    function _prepareNextRound(PoolId poolId) internal {
        round[poolId] = round[poolId] + 1;
        auctionTimestamp[poolId] = block.timestamp;
        if (round[poolId] > maxRounds) {
            poolDecayStartTime[poolId] = block.timestamp;
            emit AuctionEnded(poolId);
            return;
        }
        gasPeg[poolId] = _gasPeg(blocksBetweenAuction);
        nextAuctionBlock[poolId] = block.number + blocksBetweenAuction;
        emit AuctionReset(poolId, round[poolId]);
    }

    function _handleFeeDecay(PoolKey calldata poolKey) internal returns (bool) {
        PoolId poolId = poolKey.toId();
        if (block.timestamp > poolDecayStartTime[poolId] + feeConfig[poolId].secondsToDecay) {
            emit DecayPeriodOver(poolId);
            return true;
        }
        IDevnetClankerHookFee(msg.sender).mevModuleSetFee(poolKey, _calculateFee(poolId));
        return false;
    }

    /// @dev The real module's parabolic decay, step by step (1e18 fixed point, floored at each step).
    function _calculateFee(PoolId poolId) internal view returns (uint24) {
        FeeConfig memory c = feeConfig[poolId];
        uint256 timeDecay = c.secondsToDecay - (block.timestamp - poolDecayStartTime[poolId]);
        uint256 range = c.startingFee - c.endingFee;
        uint256 normalized = (timeDecay * 1e18) / c.secondsToDecay;
        uint256 squared = (normalized * normalized) / 1e18;
        return uint24(c.endingFee + (range * squared) / 1e18);
    }

    /// @dev As on Base: the base fee grown by 12.5% per block until the auction block.
    function _gasPeg(uint256 blocks) internal view returns (uint256) {
        return (block.basefee * (1125 ** blocks)) / (1000 ** blocks);
    }
}

