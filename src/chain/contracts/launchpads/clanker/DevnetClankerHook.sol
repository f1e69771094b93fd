// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BeforeSwapDelta, toBeforeSwapDelta} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {DevnetDecayingFeeHook} from "../DevnetDecayingFeeHook.sol";

interface IDevnetClankerMevModule {
    function initialize(PoolKey calldata poolKey, bytes calldata mevModuleData) external;
    function beforeSwap(PoolKey calldata poolKey, SwapParams calldata swapParams, bool clankerIsToken0, bytes calldata data)
        external
        returns (bool disableMevModule);
}

/// @notice Devnet stand-in for Clanker v4.1's static-fee hook (clanker-devco/v4-contracts, src/hooks/ClankerHookV2.sol
/// and ClankerHookStaticFeeV2): the hook at TokenCreated's `poolHook`, its MEV module a separate contract
/// (DevnetClankerSniperAuction, at `mevModule`), as on Base.
/// - LP fee `pairedFee(poolId)` (default 1%), written to the pool before each swap with `updateDynamicLPFee` (slot0's
///   lpFee is the last fee charged, no per-swap override), as the real `_setFee`; a protocol fee of 20% of the charged LP fee on top, taken from the input
///   of exact-input buys, so the buyer's effective fee is f_total = 1 - (1 - f) / (1 + 0.2 f).
/// - The MEV module runs in every swap while it is operational (enabled, and less than MAX_MEV_MODULE_DELAY = 2 minutes
///   after the pool's creation); it may revert the swap (auction gating) or set a higher fee for it through
///   `mevModuleSetFee` (ignored above MAX_MEV_LP_FEE or when not above the LP fee); it switches itself off when its
///   decay is over. The swap's hookData, when not empty, is the real PoolSwapData (module data, extension data).
/// Simplified: the factory registers the pool (the real hook initialises it), no pool extensions, no LP locker claims;
/// the protocol fee stays in the PoolManager as ERC-6909 claims of this hook.
contract DevnetClankerHook is DevnetDecayingFeeHook {
    using StateLibrary for IPoolManager;

    struct PoolSwapData {
        bytes mevModuleSwapData;
        bytes poolExtensionSwapData;
    }

    uint24 public constant MAX_LP_FEE = 100_000;
    uint24 public constant MAX_MEV_LP_FEE = 800_000;
    uint256 public constant MAX_MEV_MODULE_DELAY = 2 minutes;
    uint256 public constant PROTOCOL_FEE_NUMERATOR = 200_000; // 20% of the LP fee, in millionths

    /// @dev The static LP fee on buys (unused by the dynamic hook, which computes its fee per swap).
    mapping(PoolId => uint24) internal _pairedFee;
    mapping(PoolId => address) public pairedTokenOf;
    mapping(PoolId => bool) public clankerIsToken0;
    mapping(PoolId => address) public mevModule;
    mapping(PoolId => bool) public mevModuleEnabled;
    mapping(PoolId => uint256) public poolCreationTimestamp;

    event MevModuleDisabled(PoolId indexed poolId);
    event MevModuleSetFee(PoolId indexed poolId, uint24 fee);

    error InvalidFeeConfig();
    error Unauthorized();

    constructor(IPoolManager poolManager_, address admin_) DevnetDecayingFeeHook(poolManager_, admin_) {}

    function getHookPermissions() public pure override returns (Hooks.Permissions memory p) {
        p.beforeSwap = true;
        p.beforeSwapReturnDelta = true;
    }

    function registerPool(PoolKey calldata key, address clanker, address pairedToken, uint24 lpFee, address mevModule_)
        external
        onlyLaunchpad
    {
        if (lpFee > MAX_LP_FEE) revert InvalidFeeConfig();
        PoolId poolId = key.toId();
        _pairedFee[poolId] = lpFee;
        pairedTokenOf[poolId] = pairedToken;
        clankerIsToken0[poolId] = clanker < pairedToken;
        mevModule[poolId] = mevModule_;
        poolCreationTimestamp[poolId] = block.timestamp;
    }

    /// @notice As the real hook's: called by the factory once the pool holds its liquidity.
    function initializeMevModule(PoolKey calldata key, bytes calldata mevModuleData) external onlyLaunchpad {
        IDevnetClankerMevModule(mevModule[key.toId()]).initialize(key, mevModuleData);
        mevModuleEnabled[key.toId()] = true;
    }

    function mevModuleOperational(PoolId poolId) public returns (bool) {
        if (!mevModuleEnabled[poolId]) return false;
        if (block.timestamp >= poolCreationTimestamp[poolId] + MAX_MEV_MODULE_DELAY) {
            mevModuleEnabled[poolId] = false;
            emit MevModuleDisabled(poolId);
            return false;
        }
        return true;
    }

    /// @notice The static hook's LP fee on buys (ClankerHookStaticFeeV2.pairedFee).
    function pairedFee(PoolId poolId) external view virtual returns (uint24) {
        return _pairedFee[poolId];
    }

    /// @dev The LP fee of a swap without an MEV fee: the static `pairedFee` here; the dynamic hook computes it.
    function _lpFee(PoolKey calldata key, SwapParams calldata) internal virtual returns (uint24) {
        return _pairedFee[key.toId()];
    }

    /// @notice As the real one: a fee above the swap's LP fee (the pool's current one, set by _beforeSwap) replaces it.
    function mevModuleSetFee(PoolKey calldata key, uint24 fee) external {
        PoolId poolId = key.toId();
        if (mevModule[poolId] != msg.sender) revert Unauthorized();
        if (fee > MAX_MEV_LP_FEE) return;
        (,,, uint24 currentLpFee) = poolManager.getSlot0(poolId);
        if (fee <= currentLpFee) return;
        poolManager.updateDynamicLPFee(key, fee);
        emit MevModuleSetFee(poolId, fee);
    }

    function _beforeSwap(address, PoolKey calldata key, SwapParams calldata params, bytes calldata hookData)
        internal
        override
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        PoolId poolId = key.toId();
        if (poolCreationTimestamp[poolId] == 0) revert PoolNotRegistered();
        // As the real hooks' _setFee: the swap's LP fee is written to the pool (slot0's lpFee, the fee the swap pays and
        // StateView reports), then the MEV module may raise it through mevModuleSetFee.
        poolManager.updateDynamicLPFee(key, _lpFee(key, params));
        if (mevModuleOperational(poolId)) {
            bytes memory moduleData;
            if (hookData.length > 0) moduleData = abi.decode(hookData, (PoolSwapData)).mevModuleSwapData;
            bool disable =
                IDevnetClankerMevModule(mevModule[poolId]).beforeSwap(key, params, clankerIsToken0[poolId], moduleData);
            if (disable) {
                mevModuleEnabled[poolId] = false;
                emit MevModuleDisabled(poolId);
            }
        }
        (,,, uint24 fee) = poolManager.getSlot0(poolId);

        int128 protocolFee = 0;
        Currency paired = Currency.wrap(pairedTokenOf[poolId]);
        Currency input = params.zeroForOne ? key.currency0 : key.currency1;
        if (params.amountSpecified < 0 && input == paired) {
            // fee/(5e6+fee) of the input is 20% of the LP fee applied to what remains: input/(1+0.2f) reaches the pool.
            uint256 amountIn = uint256(-params.amountSpecified);
            uint256 taken = (amountIn * fee) / (5 * 1_000_000 + uint256(fee));
            if (taken > 0) {
                // Claims, not a transfer: the pool may hold none of the paired token yet.
                poolManager.mint(address(this), paired.toId(), taken);
                protocolFee = int128(int256(taken));
            }
        }
        return (this.beforeSwap.selector, toBeforeSwapDelta(protocolFee, 0), 0);
    }
}
