// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.28;

/// The Sandbox's gateway contract: what offramp and token-swap transactions call on the Sandbox's local EVM chains.
/// Its interface is gateway-sim's `IGatewaySim` (crates/gateway-sim/src/payload/evm.rs). It takes the user's tokens
/// (or native coin) and records the order; the simulated gateway pays out on the other side.
interface IERC20Min {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
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
