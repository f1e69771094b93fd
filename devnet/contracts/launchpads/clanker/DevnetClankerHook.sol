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
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {DevnetDecayingFeeHook} from "../DevnetDecayingFeeHook.sol";
import {IClankerHook, IClankerMevModule} from "./ClankerModuleInterfaces.sol";

/// @notice Devnet stand-in for Clanker v4.1's static-fee hook (clanker-devco/v4-contracts, src/hooks/ClankerHookV2.sol
/// and ClankerHookStaticFeeV2.sol): the hook at TokenCreated's `poolHook`, its MEV module a separate contract
/// (DevnetClankerSniperAuction, at `mevModule`), as on Base.
/// - `initializePool` (factory only) as the real one: refuses native ETH, builds the dynamic-fee pool key with this hook,
///   initialises the pool at the starting tick (negated when the token is currency1), decodes `poolData` as the real
///   PoolInitializationData{extension, extensionData, feeData} and the fee data as PoolStaticConfigVars{clankerFee,
///   pairedFee} (the dynamic hook: PoolDynamicConfigVars), records the locker and MEV module, emits PoolCreatedFactory.
/// - LP fee: buys (paired token in) pay `pairedFee(poolId)`, sells `clankerFee(poolId)`, written to the pool before each
///   swap with `updateDynamicLPFee` (slot0's lpFee is the last fee charged), as the real `_setFee`; a protocol fee of 20%
///   of the charged LP fee on top, taken from the input of exact-input buys, so the buyer's effective fee is
///   f_total = 1 - (1 - f) / (1 + 0.2 f).
/// - The MEV module runs in every swap while it is operational (enabled, and less than MAX_MEV_MODULE_DELAY = 2 minutes
///   after the pool's creation); it may revert the swap (auction gating) or set a higher fee for it through
///   `mevModuleSetFee` (ignored above MAX_MEV_LP_FEE or when not above the LP fee); it switches itself off when its
///   decay is over. The swap's hookData, when not empty, is the real PoolSwapData (module data, extension data).
/// Simplified: no pool extensions (none is allowlisted, so a poolData naming one reverts PoolExtensionNotEnabled, as the
/// real hook with an empty allowlist), no `initializePoolOpen`, no LP locker claims in swaps; the protocol fee stays in
/// the PoolManager as ERC-6909 claims of this hook. The factory is the `launchpad` the admin names once.
contract DevnetClankerHook is DevnetDecayingFeeHook {
    using StateLibrary for IPoolManager;

    struct PoolSwapData {
        bytes mevModuleSwapData;
        bytes poolExtensionSwapData;
    }

    /// @dev IClankerHookV2.PoolInitializationData: what the factory's `poolConfig.poolData` holds.
    struct PoolInitializationData {
        address extension;
        bytes extensionData;
        bytes feeData;
    }

    /// @dev IClankerHookStaticFee.PoolStaticConfigVars: the static hook's fee data.
    struct PoolStaticConfigVars {
        uint24 clankerFee;
        uint24 pairedFee;
    }

    uint24 public constant MAX_LP_FEE = 100_000;
    uint24 public constant MAX_MEV_LP_FEE = 800_000;
    uint256 public constant MAX_MEV_MODULE_DELAY = 2 minutes;
    uint256 public constant PROTOCOL_FEE_NUMERATOR = 200_000; // 20% of the LP fee, in millionths

    /// @dev The static LP fees on buys and sells (unused by the dynamic hook, which computes its fee per swap).
    mapping(PoolId => uint24) internal _pairedFee;
    mapping(PoolId => uint24) internal _clankerFee;
    mapping(PoolId => address) public pairedTokenOf;
    mapping(PoolId => bool) public clankerIsToken0;
    mapping(PoolId => address) public locker;
    mapping(PoolId => address) public mevModule;
    mapping(PoolId => bool) public mevModuleEnabled;
    mapping(PoolId => uint256) public poolCreationTimestamp;

    event PoolCreatedFactory(
        address indexed pairedToken,
        address indexed clanker,
        PoolId poolId,
        int24 tickIfToken0IsClanker,
        int24 tickSpacing,
        address locker,
        address mevModule
    );
    event PoolExtensionRegistered(PoolId indexed poolId, address indexed extension);
    event PoolInitialized(PoolId poolId, uint24 clankerFee, uint24 pairedFee);
    event MevModuleDisabled(PoolId);
    event MevModuleSetFee(PoolId poolId, uint24 fee);

    error Unauthorized();
    error OnlyFactory();
    error ETHPoolNotAllowed();
    error PoolExtensionNotEnabled();
    error ClankerFeeTooHigh();
    error PairedFeeTooHigh();

    constructor(IPoolManager poolManager_, address admin_) DevnetDecayingFeeHook(poolManager_, admin_) {}

    modifier onlyFactory() {
        if (msg.sender != launchpad) revert OnlyFactory();
        _;
    }

    /// @notice The factory allowed to initialise pools (the real hook's immutable `factory`).
    function factory() external view returns (address) {
        return launchpad;
    }

    function getHookPermissions() public pure override returns (Hooks.Permissions memory p) {
        p.beforeSwap = true;
        p.beforeSwapReturnDelta = true;
    }

    /// @notice The real factory's setHook accepts a hook only if it reports the IClankerHook interface.
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IClankerHook).interfaceId;
    }

    /// @notice As ClankerHookV2.initializePool / _initializePool (see the contract's notice).
    function initializePool(
        address clanker,
        address pairedToken,
        int24 tickIfToken0IsClanker,
        int24 tickSpacing,
        address locker_,
        address mevModule_,
        bytes calldata poolData
    ) external onlyFactory returns (PoolKey memory key) {
        if (pairedToken == address(0) || clanker == address(0)) revert ETHPoolNotAllowed();
        bool token0IsClanker = clanker < pairedToken;
        key = PoolKey({
            currency0: Currency.wrap(token0IsClanker ? clanker : pairedToken),
            currency1: Currency.wrap(token0IsClanker ? pairedToken : clanker),
            fee: LPFeeLibrary.DYNAMIC_FEE_FLAG,
            tickSpacing: tickSpacing,
            hooks: IHooks(address(this))
        });
        PoolId poolId = key.toId();
        clankerIsToken0[poolId] = token0IsClanker;
        pairedTokenOf[poolId] = pairedToken;
        poolManager.initialize(
            key, TickMath.getSqrtPriceAtTick(token0IsClanker ? tickIfToken0IsClanker : -tickIfToken0IsClanker)
        );
        poolCreationTimestamp[poolId] = block.timestamp;
        PoolInitializationData memory init = abi.decode(poolData, (PoolInitializationData));
        _initializeFeeData(key, init.feeData);
        if (init.extension != address(0)) revert PoolExtensionNotEnabled();
        locker[poolId] = locker_;
        mevModule[poolId] = mevModule_;
        emit PoolCreatedFactory(pairedToken, clanker, poolId, tickIfToken0IsClanker, tickSpacing, locker_, mevModule_);
        emit PoolExtensionRegistered(poolId, address(0));
    }

    /// @dev ClankerHookStaticFeeV2._initializeFeeData; the dynamic hook overrides it.
    function _initializeFeeData(PoolKey memory key, bytes memory feeData) internal virtual {
        PoolStaticConfigVars memory vars = abi.decode(feeData, (PoolStaticConfigVars));
        if (vars.clankerFee > MAX_LP_FEE) revert ClankerFeeTooHigh();
        if (vars.pairedFee > MAX_LP_FEE) revert PairedFeeTooHigh();
        PoolId poolId = key.toId();
        _clankerFee[poolId] = vars.clankerFee;
        _pairedFee[poolId] = vars.pairedFee;
        emit PoolInitialized(poolId, vars.clankerFee, vars.pairedFee);
    }

    /// @notice As the real hook's: called by the factory once the pool holds its liquidity and the extensions ran.
    function initializeMevModule(PoolKey calldata key, bytes calldata mevModuleData) external onlyFactory {
        IClankerMevModule(mevModule[key.toId()]).initialize(key, mevModuleData);
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

    /// @notice The static hook's LP fee on sells (ClankerHookStaticFeeV2.clankerFee).
    function clankerFee(PoolId poolId) external view virtual returns (uint24) {
        return _clankerFee[poolId];
    }

    /// @dev The LP fee of a swap without an MEV fee: ClankerHookStaticFeeV2._setFee charges `pairedFee` when the paired
    /// token goes in (zeroForOne differs from clankerIsToken0), `clankerFee` otherwise; the dynamic hook computes it.
    function _lpFee(PoolKey calldata key, SwapParams calldata params) internal virtual returns (uint24) {
        PoolId poolId = key.toId();
        return params.zeroForOne != clankerIsToken0[poolId] ? _pairedFee[poolId] : _clankerFee[poolId];
    }

    /// @notice As the real one: a fee above the swap's LP fee (the pool's current one, set by _beforeSwap) replaces it.
    function mevModuleSetFee(PoolKey calldata key, uint24 fee) external {
        PoolId poolId = key.toId();
        if (mevModule[poolId] != msg.sender) revert Unauthorized();
        if (!mevModuleOperational(poolId)) return;
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
                IClankerMevModule(mevModule[poolId]).beforeSwap(key, params, clankerIsToken0[poolId], moduleData);
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
