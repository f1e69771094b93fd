// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {DevnetLaunchToken} from "../DevnetLaunchToken.sol";
import {IClanker} from "../../../../src/chain/contracts/launchpads/clanker/IClanker.sol";
import {
    IClankerHook,
    IClankerLpLocker,
    IClankerExtension,
    IClankerMevModule,
    IERC165Like
} from "./ClankerModuleInterfaces.sol";

/// @notice Devnet Clanker v4 factory taking the real `deployToken(IClanker.DeploymentConfig)` (clanker-devco/v4-contracts
/// src/Clanker.sol), with its steps in its order: not deprecated; `tokenConfig.originatingChainId == block.chainid`;
/// the 100B token by CREATE2 with the salt `keccak256(abi.encode(tokenAdmin, salt))` (src/utils/ClankerDeployer.sol);
/// the extensions' supply (at most 10 extensions and 9,000 bps, their msgValues summing to msg.value, each enabled);
/// the pool initialised by the (enabled) hook's `initializePool`; the liquidity placed by the locker enabled for that
/// hook (`placeLiquidity`, after approving it the pool supply); each extension's `receiveTokens` with its msgValue and
/// ExtensionTriggered; the (enabled) MEV module initialised through the hook; `deploymentInfoForToken` recorded; the
/// real TokenCreated. The owner enables hooks, lockers (per hook), extensions and MEV modules, each checked through
/// ERC-165 with the real interface ids, and un-deprecates the factory (deployed deprecated, as the real one).
/// Simplified: the token is DevnetLaunchToken (another bytecode than ClankerToken, so other addresses than on Base for
/// the same salt), owner only (no admins), no team fees, no deployTokenZeroSupply.
contract DevnetClankerFactory is IClanker {
    uint256 public constant TOKEN_SUPPLY = 100_000_000_000 ether;
    uint256 public constant BPS = 10_000;
    uint256 public constant MAX_EXTENSIONS = 10;
    uint16 public constant MAX_EXTENSION_BPS = 9000;

    address public immutable owner;
    bool public deprecated;
    bool private _entered;

    mapping(address token => DeploymentInfo) public deploymentInfoForToken;
    mapping(address hook => bool) internal enabledHooks;
    mapping(address locker => mapping(address hook => bool)) public enabledLockers;
    mapping(address extension => bool) internal enabledExtensions;
    mapping(address mevModule => bool) internal enabledMevModules;

    error Unauthorized();
    error ReentrancyGuardReentrantCall();

    constructor(address owner_) {
        owner = owner_;
        deprecated = true;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized();
        _;
    }

    modifier nonReentrant() {
        if (_entered) revert ReentrancyGuardReentrantCall();
        _entered = true;
        _;
        _entered = false;
    }

    function setDeprecated(bool deprecated_) external onlyOwner {
        deprecated = deprecated_;
        emit SetDeprecated(deprecated_);
    }

    function setHook(address hook, bool enabled) external onlyOwner {
        if (!IERC165Like(hook).supportsInterface(type(IClankerHook).interfaceId)) revert InvalidHook();
        enabledHooks[hook] = enabled;
        emit SetHook(hook, enabled);
    }

    function setLocker(address locker, address hook, bool enabled) external onlyOwner {
        if (!IERC165Like(locker).supportsInterface(type(IClankerLpLocker).interfaceId)) revert InvalidLocker();
        enabledLockers[locker][hook] = enabled;
        emit SetLocker(locker, hook, enabled);
    }

    function setMevModule(address mevModule, bool enabled) external onlyOwner {
        if (!IERC165Like(mevModule).supportsInterface(type(IClankerMevModule).interfaceId)) revert InvalidMevModule();
        enabledMevModules[mevModule] = enabled;
        emit SetMevModule(mevModule, enabled);
    }

    function setExtension(address extension, bool enabled) external onlyOwner {
        if (!IERC165Like(extension).supportsInterface(type(IClankerExtension).interfaceId)) revert InvalidExtension();
        enabledExtensions[extension] = enabled;
        emit SetExtension(extension, enabled);
    }

    function tokenDeploymentInfo(address token) external view returns (DeploymentInfo memory) {
        return deploymentInfoForToken[token];
    }

    function deployToken(DeploymentConfig memory cfg) external payable nonReentrant returns (address tokenAddress) {
        if (deprecated) revert Deprecated();
        if (block.chainid != cfg.tokenConfig.originatingChainId) revert OnlyOriginatingChain();

        tokenAddress = address(
            new DevnetLaunchToken{salt: keccak256(abi.encode(cfg.tokenConfig.tokenAdmin, cfg.tokenConfig.salt))}(
                cfg.tokenConfig.name, cfg.tokenConfig.symbol, TOKEN_SUPPLY, address(this)
            )
        );
        uint256 extensionsSupply = _prepareExtensions(cfg.extensionConfigs);

        if (!enabledHooks[cfg.poolConfig.hook]) revert HookNotEnabled();
        PoolKey memory poolKey = IClankerHook(cfg.poolConfig.hook).initializePool(
            tokenAddress,
            cfg.poolConfig.pairedToken,
            cfg.poolConfig.tickIfToken0IsClanker,
            cfg.poolConfig.tickSpacing,
            cfg.lockerConfig.locker,
            cfg.mevModuleConfig.mevModule,
            cfg.poolConfig.poolData
        );

        if (!enabledLockers[cfg.lockerConfig.locker][cfg.poolConfig.hook]) revert LockerNotEnabled();
        uint256 poolSupply = TOKEN_SUPPLY - extensionsSupply;
        DevnetLaunchToken(tokenAddress).approve(cfg.lockerConfig.locker, poolSupply);
        IClankerLpLocker(cfg.lockerConfig.locker).placeLiquidity(
            cfg.lockerConfig, cfg.poolConfig, poolKey, poolSupply, tokenAddress
        );

        _triggerExtensions(cfg, poolKey, tokenAddress);

        if (!enabledMevModules[cfg.mevModuleConfig.mevModule]) revert MevModuleNotEnabled();
        IClankerHook(cfg.poolConfig.hook).initializeMevModule(poolKey, cfg.mevModuleConfig.mevModuleData);

        address[] memory extensions = new address[](cfg.extensionConfigs.length);
        for (uint256 i = 0; i < extensions.length; i++) {
            extensions[i] = cfg.extensionConfigs[i].extension;
        }
        deploymentInfoForToken[tokenAddress] = DeploymentInfo({
            token: tokenAddress,
            hook: cfg.poolConfig.hook,
            locker: cfg.lockerConfig.locker,
            extensions: extensions
        });
        _emitTokenCreated(cfg, tokenAddress, poolKey, extensionsSupply, extensions);
    }

    /// @dev Clanker._prepareExtensions: the checks in the real order, then the supply the extensions take.
    function _prepareExtensions(ExtensionConfig[] memory extensions) internal view returns (uint256) {
        if (extensions.length == 0) return 0;
        if (extensions.length > MAX_EXTENSIONS) revert MaxExtensionsExceeded();
        uint256 bps = 0;
        for (uint256 i = 0; i < extensions.length; i++) {
            bps += extensions[i].extensionBps;
        }
        if (bps > MAX_EXTENSION_BPS) revert MaxExtensionBpsExceeded();
        uint256 expectedEth = 0;
        for (uint256 i = 0; i < extensions.length; i++) {
            expectedEth += extensions[i].msgValue;
        }
        if (expectedEth != msg.value) revert ExtensionMsgValueMismatch();
        for (uint256 i = 0; i < extensions.length; i++) {
            if (!enabledExtensions[extensions[i].extension]) revert ExtensionNotEnabled();
        }
        return (bps * TOKEN_SUPPLY) / BPS;
    }

    /// @dev Clanker._triggerExtensions: each extension approved its share and called with its msgValue.
    function _triggerExtensions(DeploymentConfig memory cfg, PoolKey memory poolKey, address token) internal {
        for (uint256 i = 0; i < cfg.extensionConfigs.length; i++) {
            ExtensionConfig memory ext = cfg.extensionConfigs[i];
            uint256 supply = (ext.extensionBps * TOKEN_SUPPLY) / BPS;
            DevnetLaunchToken(token).approve(ext.extension, supply);
            IClankerExtension(ext.extension).receiveTokens{value: ext.msgValue}(cfg, poolKey, token, supply, i);
            emit ExtensionTriggered(ext.extension, supply, ext.msgValue);
        }
    }

    function _emitTokenCreated(
        DeploymentConfig memory cfg,
        address tokenAddress,
        PoolKey memory poolKey,
        uint256 extensionsSupply,
        address[] memory extensions
    ) private {
        emit TokenCreated({
            msgSender: msg.sender,
            tokenAddress: tokenAddress,
            tokenAdmin: cfg.tokenConfig.tokenAdmin,
            tokenImage: cfg.tokenConfig.image,
            tokenName: cfg.tokenConfig.name,
            tokenSymbol: cfg.tokenConfig.symbol,
            tokenMetadata: cfg.tokenConfig.metadata,
            tokenContext: cfg.tokenConfig.context,
            startingTick: cfg.poolConfig.tickIfToken0IsClanker,
            poolHook: cfg.poolConfig.hook,
            poolId: poolKey.toId(),
            pairedToken: cfg.poolConfig.pairedToken,
            locker: cfg.lockerConfig.locker,
            mevModule: cfg.mevModuleConfig.mevModule,
            extensionsSupply: extensionsSupply,
            extensions: extensions
        });
    }
}
