// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {ModifyLiquidityParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {LiquidityAmounts} from "@uniswap/v4-periphery/src/libraries/LiquidityAmounts.sol";
import {IClanker} from "../../../../src/chain/contracts/launchpads/clanker/IClanker.sol";
import {IClankerLpLocker} from "./ClankerModuleInterfaces.sol";

interface IDevnetLockerERC20 {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @notice Devnet stand-in for Clanker's LP locker (clanker-devco/v4-contracts
/// src/lp-lockers/ClankerLpLockerFeeConversion.sol): the factory's `placeLiquidity(lockerConfig, poolConfig, poolKey,
/// poolSupply, token)` with the real checks in the real order and the real errors (reward arrays: same lengths as the
/// lockerData's fee preferences, 1 to 7 participants, non-zero bps adding up to 10,000, no zero address; positions:
/// same lengths, 1 to 7, lower <= upper, inside the tick bounds, on the tick spacing, lower at or above
/// `tickIfToken0IsClanker`, bps adding up to 10,000), then one single-sided position per entry holding
/// `poolSupply * positionBps / 10,000` tokens, ticks negated and swapped when the token is currency1, liquidity from
/// `getLiquidityForAmounts` at the starting price; `tokenRewards` and the TokenRewardAdded / InitialFeePreferences events.
/// Simplified: the positions are minted through the PoolManager directly (ModifyLiquidity's sender is this locker and
/// the salt 0, not the PositionManager and a token id; `positionId` is 1 for the first token, counting up); no fee
/// collection, conversion or reward claims (collectRewards reverts).
contract DevnetClankerLpLocker is IUnlockCallback {
    /// @dev IClankerLpLockerFeeConversion.FeeIn and LpFeeConversionInfo: what `lockerConfig.lockerData` holds.
    enum FeeIn {
        Both,
        Paired,
        Clanker
    }

    struct LpFeeConversionInfo {
        FeeIn[] feePreference;
    }

    uint256 public constant BASIS_POINTS = 10_000;
    uint256 public constant MAX_REWARD_PARTICIPANTS = 7;
    uint256 public constant MAX_LP_POSITIONS = 7;

    IPoolManager public immutable poolManager;
    address public immutable factory;
    uint256 internal _nextPositionId = 1;

    mapping(address token => IClankerLpLocker.TokenRewardInfo) internal _tokenRewards;
    mapping(address token => FeeIn[]) public feePreferences;

    event TokenRewardAdded(
        address token,
        PoolKey poolKey,
        uint256 poolSupply,
        uint256 positionId,
        uint256 numPositions,
        uint16[] rewardBps,
        address[] rewardAdmins,
        address[] rewardRecipients,
        int24[] tickLower,
        int24[] tickUpper,
        uint16[] positionBps
    );
    event InitialFeePreferences(address indexed token, FeeIn[] feePreference);

    error Unauthorized();
    error TokenAlreadyHasRewards();
    error MismatchedRewardArrays();
    error TooManyRewardParticipants();
    error NoRewardRecipients();
    error ZeroRewardAmount();
    error InvalidRewardBps();
    error ZeroRewardAddress();
    error MismatchedPositionInfos();
    error NoPositions();
    error TooManyPositions();
    error TicksBackwards();
    error TicksOutOfTickBounds();
    error TicksNotMultipleOfTickSpacing();
    error TickRangeLowerThanStartingTick();
    error InvalidPositionBps();
    error NotImplementedOnDevnet();

    constructor(IPoolManager poolManager_, address factory_) {
        poolManager = poolManager_;
        factory = factory_;
    }

    /// @notice The real factory's setLocker accepts a locker only if it reports the IClankerLpLocker interface.
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IClankerLpLocker).interfaceId;
    }

    function tokenRewards(address token) external view returns (IClankerLpLocker.TokenRewardInfo memory) {
        return _tokenRewards[token];
    }

    function collectRewards(address) external pure {
        revert NotImplementedOnDevnet();
    }

    function collectRewardsWithoutUnlock(address) external pure {
        revert NotImplementedOnDevnet();
    }

    function placeLiquidity(
        IClanker.LockerConfig memory lockerConfig,
        IClanker.PoolConfig memory poolConfig,
        PoolKey memory poolKey,
        uint256 poolSupply,
        address token
    ) external returns (uint256 positionId) {
        if (msg.sender != factory) revert Unauthorized();
        FeeIn[] memory preferences = abi.decode(lockerConfig.lockerData, (LpFeeConversionInfo)).feePreference;
        if (_tokenRewards[token].positionId != 0) revert TokenAlreadyHasRewards();
        _checkRewards(lockerConfig, preferences.length);

        IDevnetLockerERC20(token).transferFrom(msg.sender, address(this), poolSupply);
        _mintLiquidity(poolConfig, lockerConfig, poolKey, poolSupply, token);
        positionId = _nextPositionId;
        _nextPositionId += lockerConfig.tickLower.length;

        _tokenRewards[token] = IClankerLpLocker.TokenRewardInfo({
            token: token,
            poolKey: poolKey,
            positionId: positionId,
            numPositions: lockerConfig.tickLower.length,
            rewardBps: lockerConfig.rewardBps,
            rewardAdmins: lockerConfig.rewardAdmins,
            rewardRecipients: lockerConfig.rewardRecipients
        });
        for (uint256 i = 0; i < preferences.length; i++) {
            feePreferences[token].push(preferences[i]);
        }
        emit InitialFeePreferences(token, preferences);
        emit TokenRewardAdded(
            token,
            poolKey,
            poolSupply,
            positionId,
            lockerConfig.tickLower.length,
            lockerConfig.rewardBps,
            lockerConfig.rewardAdmins,
            lockerConfig.rewardRecipients,
            lockerConfig.tickLower,
            lockerConfig.tickUpper,
            lockerConfig.positionBps
        );
    }

    /// @dev The real placeLiquidity's reward checks, in its order.
    function _checkRewards(IClanker.LockerConfig memory c, uint256 preferences) private pure {
        uint256 n = c.rewardBps.length;
        if (n != c.rewardAdmins.length || n != c.rewardRecipients.length || n != preferences) {
            revert MismatchedRewardArrays();
        }
        if (n > MAX_REWARD_PARTICIPANTS) revert TooManyRewardParticipants();
        if (n == 0) revert NoRewardRecipients();
        uint256 total = 0;
        for (uint256 i = 0; i < n; i++) {
            total += c.rewardBps[i];
            if (c.rewardBps[i] == 0) revert ZeroRewardAmount();
        }
        if (total != BASIS_POINTS) revert InvalidRewardBps();
        for (uint256 i = 0; i < n; i++) {
            if (c.rewardAdmins[i] == address(0) || c.rewardRecipients[i] == address(0)) revert ZeroRewardAddress();
        }
    }

    /// @dev The real _mintLiquidity's position checks, then the positions (see the contract's notice).
    function _mintLiquidity(
        IClanker.PoolConfig memory poolConfig,
        IClanker.LockerConfig memory c,
        PoolKey memory poolKey,
        uint256 poolSupply,
        address token
    ) private {
        uint256 n = c.tickLower.length;
        if (n != c.tickUpper.length || n != c.positionBps.length) revert MismatchedPositionInfos();
        if (n == 0) revert NoPositions();
        if (n > MAX_LP_POSITIONS) revert TooManyPositions();
        uint256 bpsTotal = 0;
        for (uint256 i = 0; i < n; i++) {
            if (c.tickLower[i] > c.tickUpper[i]) revert TicksBackwards();
            if (c.tickLower[i] < TickMath.MIN_TICK || c.tickUpper[i] > TickMath.MAX_TICK) revert TicksOutOfTickBounds();
            if (c.tickLower[i] % poolConfig.tickSpacing != 0 || c.tickUpper[i] % poolConfig.tickSpacing != 0) {
                revert TicksNotMultipleOfTickSpacing();
            }
            if (c.tickLower[i] < poolConfig.tickIfToken0IsClanker) revert TickRangeLowerThanStartingTick();
            bpsTotal += c.positionBps[i];
        }
        if (bpsTotal != BASIS_POINTS) revert InvalidPositionBps();

        bool token0IsClanker = token < poolConfig.pairedToken;
        uint160 startPrice = TickMath.getSqrtPriceAtTick(
            token0IsClanker ? poolConfig.tickIfToken0IsClanker : -poolConfig.tickIfToken0IsClanker
        );
        int24[] memory lowers = new int24[](n);
        int24[] memory uppers = new int24[](n);
        uint128[] memory liquidities = new uint128[](n);
        for (uint256 i = 0; i < n; i++) {
            uint256 amount = (poolSupply * c.positionBps[i]) / BASIS_POINTS;
            lowers[i] = token0IsClanker ? c.tickLower[i] : -c.tickUpper[i];
            uppers[i] = token0IsClanker ? c.tickUpper[i] : -c.tickLower[i];
            liquidities[i] = LiquidityAmounts.getLiquidityForAmounts(
                startPrice,
                TickMath.getSqrtPriceAtTick(lowers[i]),
                TickMath.getSqrtPriceAtTick(uppers[i]),
                token0IsClanker ? amount : 0,
                token0IsClanker ? 0 : amount
            );
        }
        poolManager.unlock(abi.encode(poolKey, lowers, uppers, liquidities));
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(poolManager)) revert Unauthorized();
        (PoolKey memory key, int24[] memory lowers, int24[] memory uppers, uint128[] memory liquidities) =
            abi.decode(data, (PoolKey, int24[], int24[], uint128[]));
        int256 owed0 = 0;
        int256 owed1 = 0;
        for (uint256 i = 0; i < lowers.length; i++) {
            (BalanceDelta delta,) = poolManager.modifyLiquidity(
                key,
                ModifyLiquidityParams({
                    tickLower: lowers[i],
                    tickUpper: uppers[i],
                    liquidityDelta: int256(uint256(liquidities[i])),
                    salt: bytes32(0)
                }),
                ""
            );
            owed0 += delta.amount0();
            owed1 += delta.amount1();
        }
        // As the PositionManager's SETTLE_PAIR: pay what the positions took; rounding dust stays in the locker.
        _settle(key.currency0, owed0);
        _settle(key.currency1, owed1);
        return "";
    }

    function _settle(Currency currency, int256 delta) private {
        if (delta >= 0) return;
        poolManager.sync(currency);
        IDevnetLockerERC20(Currency.unwrap(currency)).transfer(address(poolManager), uint256(-delta));
        poolManager.settle();
    }
}
