// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.28;

/// The Sandbox's gateway contract: what offramp and token-swap transactions call on the Sandbox's local EVM chains.
/// Its interface is gateway-sim's `IGatewaySim` (crates/gateway-sim/src/payload/evm.rs). It takes the user's tokens
/// (or native coin) and records the order; the simulated gateway pays out on the other side.
interface IERC20Min {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function allowance(address owner, address spender) external view returns (uint256);
    function balanceOf(address owner) external view returns (uint256);
}

/// The entry contract of production-shaped orders (SandboxAllowanceHolder.sol).
interface IHolder {
    function transferFrom(address token, address owner, address recipient, uint256 amount) external returns (bool);
}

interface IThief {
    function steal(address holder, address token, address owner, uint256 amount) external;
}

contract GatewaySim {
    /// One event per order paid, read by gateway-sim to check a registered transaction.
    event OfframpLocked(bytes32 indexed orderId, address indexed sender, address token, uint256 amount, uint256 minBtcOut, string btcRecipient);
    event SwapLocked(bytes32 indexed orderId, address indexed sender, address token, uint256 amount, uint64 dstChainId, bytes32 dstToken, bytes32 recipient, uint256 minAmountOut);

    /// Each order is paid once.
    mapping(bytes32 => bool) public paid;

    /// Whether an ERC-20 must be approved to this contract before a call (the gateway SDK asks this).
    function approvalRequired() external pure returns (bool) {
        return true;
    }

    function offrampToBitcoin(bytes32 orderId, address token, uint256 amount, uint256 minBtcOut, string calldata btcRecipient) external payable {
        _take(orderId, token, amount);
        require(bytes(btcRecipient).length > 0, "no Bitcoin recipient");
        emit OfframpLocked(orderId, msg.sender, token, amount, minBtcOut, btcRecipient);
    }

    function swapCrossChain(bytes32 orderId, address token, uint256 amount, uint64 dstChainId, bytes32 dstToken, bytes32 recipient, uint256 minAmountOut) external payable {
        _take(orderId, token, amount);
        require(recipient != bytes32(0), "no recipient");
        emit SwapLocked(orderId, msg.sender, token, amount, dstChainId, dstToken, recipient, minAmountOut);
    }

    /// Production-shaped orders: called by the entry contract's `exec` (`msg.sender`), with the payer appended to the
    /// calldata; the token is pulled through the entry contract's allowance.
    function offrampViaHolder(bytes32 orderId, address token, uint256 amount, uint256 minBtcOut, string calldata btcRecipient) external payable {
        address payer = _payer();
        _takeViaHolder(orderId, token, amount, payer);
        require(bytes(btcRecipient).length > 0, "no Bitcoin recipient");
        emit OfframpLocked(orderId, payer, token, amount, minBtcOut, btcRecipient);
    }

    function swapViaHolder(bytes32 orderId, address token, uint256 amount, uint64 dstChainId, bytes32 dstToken, bytes32 recipient, uint256 minAmountOut) external payable {
        address payer = _payer();
        _takeViaHolder(orderId, token, amount, payer);
        require(recipient != bytes32(0), "no recipient");
        emit SwapLocked(orderId, payer, token, amount, dstChainId, dstToken, recipient, minAmountOut);
    }

    /// The Sandbox's production-shaped lies (gateway-sim's tampers), what a hostile gateway's own contract could do
    /// inside `exec` before (or instead of) the honest call `honest` (one of the two above, run as this contract with
    /// the same caller, value and payer): 1, pull one unit more than the allowance; 2, also take all it may of the
    /// token `other` straight from the payer; 3, hand the pull to the stranger `other`, which takes the amount.
    function tampered(uint8 lie, address token, uint256 amount, address other, bytes calldata honest) external payable {
        address payer = _payer();
        if (lie == 1) {
            IHolder(msg.sender).transferFrom(token, payer, address(this), 1);
        } else if (lie == 2) {
            uint256 may = IERC20Min(other).allowance(payer, address(this));
            uint256 has = IERC20Min(other).balanceOf(payer);
            uint256 take = may < has ? may : has;
            if (take > 0) {
                require(IERC20Min(other).transferFrom(payer, address(this), take), "transfer failed");
            }
        } else if (lie == 3) {
            IThief(other).steal(msg.sender, token, payer, amount);
            return;
        }
        (bool ok, bytes memory out) = address(this).delegatecall(abi.encodePacked(honest, payer));
        if (!ok) {
            assembly {
                revert(add(out, 32), mload(out))
            }
        }
    }

    function _payer() private view returns (address payer) {
        require(msg.data.length >= 24, "no payer appended");
        payer = address(bytes20(msg.data[msg.data.length - 20:]));
    }

    function _takeViaHolder(bytes32 orderId, address token, uint256 amount, address payer) private {
        require(!paid[orderId], "order already paid");
        require(amount > 0, "nothing to pay");
        paid[orderId] = true;
        if (token == address(0) || token == address(0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE)) {
            require(msg.value == amount, "value is not the amount");
        } else {
            require(msg.value == 0, "value with a token");
            require(IHolder(msg.sender).transferFrom(token, payer, address(this), amount), "transfer failed");
        }
    }

    function _take(bytes32 orderId, address token, uint256 amount) private {
        require(!paid[orderId], "order already paid");
        require(amount > 0, "nothing to pay");
        paid[orderId] = true;
        if (token == address(0)) {
            require(msg.value == amount, "value is not the amount");
        } else {
            require(msg.value == 0, "value with a token");
            require(IERC20Min(token).transferFrom(msg.sender, address(this), amount), "transfer failed");
        }
    }
}
