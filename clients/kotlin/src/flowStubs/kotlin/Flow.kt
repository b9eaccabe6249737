// Stubs of the kotlinx.coroutines types the StateFlow adapter uses, with their names and
// signatures: `make kotlin-check` compiles ThemedFlows.kt against them. Not shipped.
@file:Suppress("unused", "FunctionName")

package kotlinx.coroutines.flow

interface StateFlow<out T> { val value: T }
interface MutableStateFlow<T> : StateFlow<T> { override var value: T }

fun <T> MutableStateFlow(value: T): MutableStateFlow<T> = object : MutableStateFlow<T> { override var value: T = value }

fun <T> MutableStateFlow<T>.asStateFlow(): StateFlow<T> = this
